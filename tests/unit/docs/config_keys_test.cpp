// docs/configuration.md documents exactly the keys the loader accepts.
// The loader has no schema apart from its code, so the test asks it: a
// made-up key put into a map draws "unknown key (expected one of ...)",
// which lists that map's keys, and each of those is probed the same way to
// tell maps, maps of named entries (apps.<app>) and lists of maps
// (reset.overrides[]) from plain values. A key added to a section reader
// shows up here without any change to this test.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>

#include "config/config.h"
#include "doc_headings.h"

namespace mnemo::docs_testing {
namespace {

constexpr const char* kProbe = "zq_probe_key_zq";
constexpr int kMaxDepth = 8;

// One step from a map down to a child: a key, a named entry (<>), or the first item of a list ([]).
struct Step {
    enum class Kind { Key, Named, Item } kind;
    std::string key;
};

// The steps as a dotted path, a named entry written `named` and a list item `item`.
std::string path_of(const std::vector<Step>& steps, std::string_view named, std::string_view item) {
    std::string path;
    for (const Step& step : steps) {
        if (step.kind == Step::Kind::Item) {
            path += item;
            continue;
        }
        if (!path.empty()) path += ".";
        path += step.kind == Step::Kind::Named ? std::string(named) : step.key;
    }
    return path;
}

// The path as the documentation writes it ("apps.<>.limits", "reset.overrides[].match").
std::string dotted(const std::vector<Step>& steps) {
    return path_of(steps, "<>", "[]");
}

// The path as the loader's errors write it ("apps.zq_probe_key_zq.limits", "reset.overrides[0].match").
std::string error_path(const std::vector<Step>& steps) {
    return path_of(steps, kProbe, "[0]");
}

// A flow-style YAML text with `leaf` at `steps`, plugin `plugin` chosen
// (the storage options a plugin takes depend on it).
std::string nested(const std::vector<Step>& steps, size_t i, const std::string& leaf, const std::string& plugin) {
    if (i == steps.size()) return leaf;
    std::string inner = nested(steps, i + 1, leaf, plugin);
    switch (steps[i].kind) {
        case Step::Kind::Item:
            return "[" + inner + "]";
        case Step::Kind::Named:
            return std::string("{") + kProbe + ": " + inner + "}";
        case Step::Kind::Key:
            break;
    }
    if (i == 0 && steps[i].key == "storage" && inner.starts_with("{")) inner.insert(1, "plugin: " + plugin + ", ");
    return "{" + steps[i].key + ": " + inner + "}";
}

std::string document(const std::vector<Step>& steps, const std::string& leaf, const std::string& plugin) {
    std::string text = nested(steps, 0, leaf, plugin);
    if (steps.empty() || steps[0].key != "storage") text.insert(text.size() - 1, ", storage: {plugin: " + plugin + "}");
    return text;
}

std::vector<std::string> errors_of(const std::string& yaml) {
    return config::load_string(yaml, "(probe)", "/srv/mnemo").errors;
}

const std::string kProbeMap = std::string("{") + kProbe + ": 1}";

// The keys listed by an "unknown key" error for the probe key under `at`;
// nullopt when there is no such error.
std::optional<std::vector<std::string>> listed_keys(const std::vector<std::string>& errors, const std::string& at) {
    std::string marker = " " + (at.empty() ? std::string() : at + ".") + kProbe + ": unknown key (";
    for (const std::string& error : errors) {
        size_t found = error.find(marker);
        if (found == std::string::npos) continue;
        std::string rest = error.substr(found + marker.size());
        if (rest.starts_with("this map takes no keys")) return std::vector<std::string>{};
        const std::string lead = "expected one of ";
        EXPECT_TRUE(rest.starts_with(lead)) << "the probe key drew a suggestion, pick another: " << error;
        std::vector<std::string> keys;
        std::string list = rest.substr(lead.size(), rest.rfind(')') - lead.size());
        for (size_t start = 0, comma;; start = comma + 2) {
            comma = list.find(", ", start);
            keys.push_back(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
            if (comma == std::string::npos) break;
        }
        return keys;
    }
    return std::nullopt;
}

void walk(const std::string& plugin, std::vector<Step>& steps, std::set<std::string>& leaves);

// Walks the map at `steps` if the probe shows one there; false when it is not a map.
bool walk_map(const std::string& plugin, std::vector<Step>& steps, std::set<std::string>& leaves) {
    auto keys = listed_keys(errors_of(document(steps, kProbeMap, plugin)), error_path(steps));
    if (!keys) return false;
    for (const std::string& key : *keys) {
        steps.push_back({Step::Kind::Key, key});
        walk(plugin, steps, leaves);
        steps.pop_back();
    }
    return true;
}

// Records the leaves under `steps`: a map's keys, a named map's entries, a list of maps' items, or the value itself.
void walk(const std::string& plugin, std::vector<Step>& steps, std::set<std::string>& leaves) {
    ASSERT_LT(steps.size(), static_cast<size_t>(kMaxDepth)) << dotted(steps);
    if (walk_map(plugin, steps, leaves)) return;
    for (Step::Kind kind : {Step::Kind::Named, Step::Kind::Item}) {
        steps.push_back({kind, ""});
        bool found = walk_map(plugin, steps, leaves);
        steps.pop_back();
        if (found) return;
    }
    leaves.insert(dotted(steps));
}

// Every key path the loader accepts: the whole tree with the default plugin,
// and storage.options again for each other built-in plugin (only they depend on it).
const std::set<std::string>& accepted_keys() {
    static std::set<std::string> leaves;
    if (!leaves.empty()) return leaves;
    std::vector<Step> root;
    walk("sqlite", root, leaves);
    for (const char* plugin : {"mysql", "postgres", "memory"}) {
        std::vector<Step> options = {{Step::Kind::Key, "storage"}, {Step::Kind::Key, "options"}};
        walk(plugin, options, leaves);
    }
    return leaves;
}

// Headings' key paths with each <placeholder> written <>.
std::set<std::string> documented_keys() {
    std::set<std::string> keys;
    static const std::regex placeholder("<[^>]*>");
    for (const std::string& item : heading_items(read_doc("docs/configuration.md"), true))
        keys.insert(std::regex_replace(item, placeholder, "<>"));
    return keys;
}

// The "### " sections of the page: heading line, then the text up to the next heading.
std::vector<std::pair<std::string, std::string>> key_sections(const std::string& markdown) {
    std::vector<std::pair<std::string, std::string>> sections;
    std::istringstream lines(markdown);
    bool in_key = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("#")) {
            in_key = line.starts_with("### ");
            if (in_key) sections.push_back({line, ""});
        } else if (in_key) {
            sections.back().second += line + "\n";
        }
    }
    return sections;
}

// The YAML a page shows: each "- Example: `...`" line and each ```yaml block.
std::vector<std::string> yaml_examples(const std::string& markdown) {
    std::vector<std::string> examples;
    std::istringstream lines(markdown);
    std::string block;
    bool in_yaml = false;
    const std::string example = "- Example: `";
    for (std::string line; std::getline(lines, line);) {
        if (in_yaml && line.starts_with("```")) {
            examples.push_back(block);
            in_yaml = false;
        } else if (in_yaml) {
            block += line + "\n";
        } else if (line.starts_with("```yaml")) {
            in_yaml = true;
            block.clear();
        } else if (line.starts_with(example) && line.ends_with("`")) {
            examples.push_back(line.substr(example.size(), line.size() - example.size() - 1));
        }
    }
    return examples;
}

TEST(ConfigReference, EveryKeyHasTypeDefaultReloadAndExample) {
    for (const auto& [heading, text] : key_sections(read_doc("docs/configuration.md"))) {
        for (const char* line : {"\n- Type: ", "\n- Default: ", "\n- Example: `"})
            EXPECT_NE(("\n" + text).find(line), std::string::npos) << heading << " has no \"" << line + 1 << "\" line";
        bool reload = text.find("\n- Reload: applied\n") != std::string::npos ||
                      text.find("\n- Reload: restart\n") != std::string::npos;
        EXPECT_TRUE(reload) << heading << " has no \"- Reload: applied\" or \"- Reload: restart\" line";
    }
}

TEST(ConfigReference, EveryExampleLoads) {
    // The secrets the examples take from the environment.
    for (const char* name : {"MNEMO_ADMIN_TOKEN", "SHOP_TOKEN", "OPENAI_API_KEY", "MNEMO_DB_PASSWORD"})
        setenv(name, "example-secret", 0);
    std::vector<std::string> examples = yaml_examples(read_doc("docs/configuration.md"));
    EXPECT_GT(examples.size(), 50u);
    for (const std::string& yaml : examples) {
        std::string all;
        for (const std::string& error : config::load_string(yaml, "(example)", "/srv/mnemo").errors)
            all += error + "\n";
        EXPECT_EQ(all, "") << "docs/configuration.md example does not load:\n" << yaml;
    }
}

TEST(ConfigReference, TheProbeFindsTheLoadersKeys) {
    std::set<std::string> accepted = accepted_keys();
    for (const char* key :
         {"server.listen", "storage.options.path", "storage.options.pool_size", "apps.<>.limits.event_limit",
          "reset.overrides[].policy.at_hour", "summary.trigger.all.idle", "memory.embedder.url"}) {
        EXPECT_TRUE(accepted.contains(key)) << key << " not found; found:\n" << listed(accepted);
    }
}

TEST(ConfigReference, DocumentsEveryKeyTheLoaderAccepts) {
    std::set<std::string> missing = minus(accepted_keys(), documented_keys());
    EXPECT_TRUE(missing.empty()) << "keys the loader accepts with no \"### `key`\" heading in docs/configuration.md "
                                    "(document them, then regenerate man/mnemod.yaml.5):\n"
                                 << listed(missing);
}

TEST(ConfigReference, NamesNoKeyTheLoaderRejects) {
    std::set<std::string> unknown = minus(documented_keys(), accepted_keys());
    EXPECT_TRUE(unknown.empty()) << "docs/configuration.md documents keys the loader rejects:\n" << listed(unknown);
}

}  // namespace
}  // namespace mnemo::docs_testing
