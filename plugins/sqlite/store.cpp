#include "sqlite_store.h"

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

// The writer connection comes first: it creates the file, switches it to WAL
// and migrates it, which the read-only connections depend on.
Store::Store(const Options& options) : options_(options) {
    std::unique_ptr<Conn> writer_conn = open_writer(options_, retry_);
    readers_ = std::make_unique<ReaderPool>(options_, retry_);
    checkpointer_ = std::make_unique<Checkpointer>(options_);
    checkpointer_->install(*writer_conn);
    writer_ = std::make_unique<Writer>(std::move(writer_conn), retry_);
}

void Store::read(const mnemo_sink* sink, const Step& step) {
    SinkOutput out(sink);
    readers_->run([&](Conn& conn) { step(conn, out); });
}

void Store::write(const mnemo_sink* sink, const Step& step) {
    RecordedOutput recorded;
    writer_->run([&](Conn& conn) {
        recorded.clear();
        step(conn, recorded);
    });
    SinkOutput out(sink);
    recorded.replay(out);
}

void Store::write_async(const mnemo_sink* sink, Step step, Writer::Finished finished) {
    auto recorded = std::make_shared<RecordedOutput>();
    writer_->submit(
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

void Store::ping() {
    readers_->run([](Conn& conn) { Query(conn, "SELECT 1").run(); });
}

}  // namespace mnemo::sqlite
