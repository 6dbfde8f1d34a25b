#include "server_check.h"

#include "plugin_table.h"
#include "schema_version.h"

#include <cstdio>

namespace mnemo::sqlcore {
namespace {

template <size_t N>
void set_text(char (&field)[N], const std::string& text) {
    std::snprintf(field, N, "%s", text.c_str());
}

}  // namespace

int run_check(const std::function<std::string()>& check, mnemo_check_result* result, mnemo_error* err,
              const char* engine) {
    *result = mnemo_check_result{};
    try {
        set_text(result->summary, check());
        return MNEMO_OK;
    } catch (const CheckFailure& failure) {
        set_text(result->option, failure.option);
        return status_of(std::make_exception_ptr(failure.error), err, engine);
    } catch (...) {
        return status_of(std::current_exception(), err, engine);
    }
}

int schema_version_if_any(Db& db, bool exists) {
    return exists ? stored_schema_version(db) : 0;
}

std::string schema_summary(int version, int supported, const std::string& engine, const std::string& where,
                           const std::string& option) {
    const std::string plugin_version = std::to_string(supported);
    if (version > supported) {
        try {
            refuse_newer_schema(engine, where, version, supported, option, "another database");
        } catch (const StoreError& e) {
            throw CheckFailure{e, option};
        }
    }
    const std::string database = engine + " database " + where + ": ";
    if (version == 0)
        return database + "no mnemod schema yet; mnemod creates it (version " + plugin_version + ") at start";
    if (version < supported)
        return database + "schema version " + std::to_string(version) + "; mnemod migrates it to " + plugin_version +
               " at start";
    return database + "schema version " + plugin_version + ", current";
}

}  // namespace mnemo::sqlcore
