#include "sqlite_store.h"

#include "checkpointer.h"
#include "options.h"
#include "reader_pool.h"
#include "retry.h"
#include "schema.h"

#include <filesystem>

namespace mnemo::sqlite {
namespace {

void create_parent_folder(const std::string& path) {
    std::filesystem::path folder = std::filesystem::path(path).parent_path();
    if (folder.empty()) return;
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error)
        throw StoreError(MNEMO_E_UNAVAILABLE, "cannot create folder " + folder.string() + " for sqlite database " +
                                                  path + ": " + error.message());
}

std::unique_ptr<Conn> open_writer(const Options& options, const RetryPolicy& retry) {
    create_parent_folder(options.path);
    auto conn = std::make_unique<Conn>(options, Conn::Mode::ReadWrite);
    migrate(*conn, retry);
    return conn;
}

}  // namespace
}  // namespace mnemo::sqlite

const char* const mnemo_backend::kEngine = "sqlite";

namespace mnemo::sqlcore {

struct Store::Engine {
    explicit Engine(const sqlite::Options& parsed);

    sqlite::Options options;
    sqlite::RetryPolicy retry;
    std::unique_ptr<sqlite::Checkpointer> checkpointer;  // outlives the writer, whose commits wake it
    std::unique_ptr<sqlite::Writer> writer;
    std::unique_ptr<sqlite::ReaderPool> readers;
};

// The writer connection comes first: it creates the file, switches it to WAL
// and migrates it, which the read-only connections depend on.
Store::Engine::Engine(const sqlite::Options& parsed) : options(parsed) {
    std::unique_ptr<sqlite::Conn> writer_conn = sqlite::open_writer(options, retry);
    readers = std::make_unique<sqlite::ReaderPool>(options, retry);
    checkpointer = std::make_unique<sqlite::Checkpointer>(options);
    checkpointer->install(*writer_conn);
    writer = std::make_unique<sqlite::Writer>(std::move(writer_conn), retry);
}

Store::Store(const char* options_json) : engine_(std::make_unique<Engine>(sqlite::parse_options(options_json))) {}

Store::~Store() = default;

void Store::read(const mnemo_sink* sink, const Step& step) {
    SinkOutput out(sink);
    engine_->readers->run([&](sqlite::Conn& conn) { step(conn, out); });
}

void Store::write(const mnemo_sink* sink, const Step& step) {
    if (std::optional<sqlite::Writer::Finished> finished = sqlite::QueueNextWrite::take())
        return sqlite::write_async(*this, sink, step, std::move(*finished));
    RecordedOutput recorded;
    engine_->writer->run([&](sqlite::Conn& conn) {
        recorded.clear();
        step(conn, recorded);
    });
    SinkOutput out(sink);
    recorded.replay(out);
}

void Store::ping() {
    engine_->readers->run([](sqlite::Conn& conn) { Query(conn, "SELECT 1").run(); });
}

}  // namespace mnemo::sqlcore

namespace mnemo::sqlite {
namespace {
thread_local QueueNextWrite* active_queue_scope = nullptr;
}  // namespace

QueueNextWrite::QueueNextWrite(Writer::Finished finished) : finished_(std::move(finished)), outer_(active_queue_scope) {
    active_queue_scope = this;
}

QueueNextWrite::~QueueNextWrite() {
    active_queue_scope = outer_;
}

std::optional<Writer::Finished> QueueNextWrite::take() {
    QueueNextWrite* scope = active_queue_scope;
    if (scope == nullptr || scope->taken_) return std::nullopt;
    scope->taken_ = true;
    return std::move(scope->finished_);
}

void write_async(Store& store, const mnemo_sink* sink, Store::Step step, Writer::Finished finished) {
    auto recorded = std::make_shared<RecordedOutput>();
    store.engine().writer->submit(
        [recorded, step = std::move(step)](Conn& conn) {
            recorded->clear();
            step(conn, *recorded);
        },
        [recorded, sink, finished = std::move(finished)](std::exception_ptr failure) {
            if (!failure) {
                try {
                    SinkOutput out(sink);
                    recorded->replay(out);
                } catch (...) {
                    failure = std::current_exception();
                }
            }
            finished(failure);
        });
}

}  // namespace mnemo::sqlite
