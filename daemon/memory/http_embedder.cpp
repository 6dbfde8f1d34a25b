// memory.embedder.kind http: an OpenAI-compatible `POST {url}/embeddings`
// over libcurl. Each client keeps one easy handle inside its own multi
// handle, so the connection is kept alive between calls; the transfer is
// driven by a poll loop that looks at the cancel flag every kPollMs, so a
// stop ends a call that hangs at once rather than at the timeout.
#include <curl/curl.h>
#include <fmt/format.h>

#include <mutex>

#include "memory/embedder.h"

namespace mnemo::memory {
namespace {

constexpr int kPollMs = 50;
constexpr size_t kBodyExcerptBytes = 200;

size_t on_data(char* data, size_t size, size_t count, void* user) {
    auto* answer = static_cast<std::string*>(user);
    size_t bytes = size * count;
    if (answer->size() + bytes > kMaxAnswerBytes) return 0;  // curl fails the call with CURLE_WRITE_ERROR
    answer->append(data, bytes);
    return bytes;
}

std::string embeddings_url(std::string_view base) {
    while (base.ends_with('/')) base.remove_suffix(1);
    return std::string(base) + "/embeddings";
}

class Headers {
public:
    explicit Headers(const std::string& api_key) {
        add("Content-Type: application/json");
        add("Accept: application/json");
        if (!api_key.empty()) add("Authorization: Bearer " + api_key);
    }
    ~Headers() { curl_slist_free_all(list_); }
    Headers(const Headers&) = delete;
    Headers& operator=(const Headers&) = delete;
    curl_slist* list() const { return list_; }

private:
    void add(const std::string& line) { list_ = curl_slist_append(list_, line.c_str()); }
    curl_slist* list_ = nullptr;
};

class HttpEmbedder final : public Embedder {
public:
    HttpEmbedder() : easy_(curl_easy_init()), multi_(curl_multi_init()) {}
    ~HttpEmbedder() override {
        curl_multi_cleanup(multi_);
        curl_easy_cleanup(easy_);
    }
    HttpEmbedder(const HttpEmbedder&) = delete;
    HttpEmbedder& operator=(const HttpEmbedder&) = delete;

    EmbedOutcome embed(const std::vector<std::string>& texts, const config::EmbedderConfig& settings,
                       const std::atomic<bool>& cancel) override {
        if (texts.empty()) return {};
        if (easy_ == nullptr || multi_ == nullptr) return {"cannot start libcurl (out of memory?)", {}};
        std::string url = embeddings_url(settings.url);
        std::string source = "embedder at " + url;
        std::string body = embed_request_body(settings.model, texts);
        Headers headers(settings.api_key);
        prepare(url, body, headers, settings.timeout_us);
        if (auto error = transfer(cancel, source, settings.timeout_us)) return {std::move(error), {}};
        long status = 0;
        curl_easy_getinfo(easy_, CURLINFO_RESPONSE_CODE, &status);
        if (status < 200 || status > 299) {
            return {fmt::format("{} answered HTTP {}: {}", source, status, excerpt(answer_, kBodyExcerptBytes)), {}};
        }
        return parse_embed_answer(answer_, texts.size(), source);
    }

private:
    void prepare(const std::string& url, const std::string& body, const Headers& headers, int64_t timeout_us) {
        curl_easy_reset(easy_);  // options only: the multi handle keeps the connection
        answer_.clear();
        error_[0] = '\0';
        curl_easy_setopt(easy_, CURLOPT_URL, url.c_str());
        curl_easy_setopt(easy_, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(easy_, CURLOPT_POSTFIELDS, body.data());
        curl_easy_setopt(easy_, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
        curl_easy_setopt(easy_, CURLOPT_HTTPHEADER, headers.list());
        curl_easy_setopt(easy_, CURLOPT_WRITEFUNCTION, on_data);
        curl_easy_setopt(easy_, CURLOPT_WRITEDATA, &answer_);
        curl_easy_setopt(easy_, CURLOPT_ERRORBUFFER, error_);
        curl_easy_setopt(easy_, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(easy_, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max<int64_t>(timeout_us / 1000, 1)));
    }

    // Runs the request to its end, its timeout or `cancel`; the error if it did not complete.
    std::optional<std::string> transfer(const std::atomic<bool>& cancel, const std::string& source,
                                        int64_t timeout_us) {
        curl_multi_add_handle(multi_, easy_);
        int running = 1;
        CURLMcode multi_code = CURLM_OK;
        bool cancelled = false;
        while (multi_code == CURLM_OK) {
            multi_code = curl_multi_perform(multi_, &running);
            if (multi_code != CURLM_OK || running == 0) break;
            if ((cancelled = cancel.load())) break;
            multi_code = curl_multi_poll(multi_, nullptr, 0, kPollMs, nullptr);
        }
        CURLcode result = finished_result();
        curl_multi_remove_handle(multi_, easy_);  // aborts a transfer still running
        if (cancelled) return fmt::format("call to {} was cancelled (mnemod is stopping)", source);
        if (multi_code != CURLM_OK)
            return fmt::format("call to {} failed: {}", source, curl_multi_strerror(multi_code));
        return describe_failure(result, source, timeout_us);
    }

    CURLcode finished_result() {
        int left = 0;
        while (CURLMsg* message = curl_multi_info_read(multi_, &left)) {
            if (message->msg == CURLMSG_DONE) return message->data.result;
        }
        return CURLE_OK;
    }

    std::optional<std::string> describe_failure(CURLcode result, const std::string& source, int64_t timeout_us) {
        if (result == CURLE_OK) return std::nullopt;
        if (result == CURLE_OPERATION_TIMEDOUT) {
            return fmt::format("{} did not answer within memory.embedder.timeout ({} ms)", source, timeout_us / 1000);
        }
        if (result == CURLE_WRITE_ERROR) {  // only on_data refuses a write
            return fmt::format("{} answered more than {} bytes", source, kMaxAnswerBytes);
        }
        std::string detail = error_[0] != '\0' ? error_ : curl_easy_strerror(result);
        return fmt::format("cannot reach {}: {}", source, detail);
    }

    CURL* easy_;
    CURLM* multi_;
    std::string answer_;
    char error_[CURL_ERROR_SIZE] = {};
};

}  // namespace

std::unique_ptr<Embedder> make_http_embedder() {
    // curl_global_init is not thread-safe before 7.84; workers start their clients at once.
    static std::once_flag curl_ready;
    std::call_once(curl_ready, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    return std::make_unique<HttpEmbedder>();
}

}  // namespace mnemo::memory
