/*
 * memory/checked_file.h -- the checksummed, all-or-nothing file the vector
 * index is saved to.
 *
 * A CheckedWriter writes a payload to "<path>.tmp", then puts the header
 * (magic, version, dimension, the owner's cursor, payload size, checksum) in
 * front, syncs and renames over <path>: a reader sees the old file or the new
 * one, never half of one. A CheckedReader refuses a file whose magic, version,
 * size or checksum is wrong, and never reads past the payload, so a count read
 * from a damaged file cannot make it allocate or read without bound. The
 * checksum finds accidental damage (a torn copy, a flipped bit), not tampering.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <variant>

namespace mnemo::memory {

// A streaming 64-bit checksum over 8-byte words (any split of the input into
// update() calls gives the same value).
class Checksum {
public:
    void update(const void* data, size_t size);
    uint64_t value() const;

private:
    void mix(uint64_t word);
    uint64_t state_ = 0x6d6e656d6f766563ULL;
    uint64_t total_ = 0;
    uint8_t pending_[8] = {};
    size_t pending_size_ = 0;
};

struct FileHeaderFields {
    uint32_t dimension = 0;
    uint64_t cursor = 0;
};

class CheckedWriter {
public:
    explicit CheckedWriter(std::string path);
    ~CheckedWriter();
    CheckedWriter(const CheckedWriter&) = delete;
    CheckedWriter& operator=(const CheckedWriter&) = delete;

    void write(const void* data, size_t size);
    template <typename T>
    void write_pod(const T& value) {
        write(&value, sizeof value);
    }
    // Writes the header, syncs, renames. Returns the error text, or nullopt.
    std::optional<std::string> commit(const FileHeaderFields& fields);

private:
    std::string path_;
    std::string temp_path_;
    std::FILE* file_ = nullptr;
    std::string failure_;
    Checksum checksum_;
    uint64_t payload_bytes_ = 0;
};

class CheckedReader {
public:
    // Opens the file and checks its header and size; the checksum is checked by finish().
    static std::variant<CheckedReader, std::string> open(const std::string& path);
    CheckedReader(CheckedReader&& other) noexcept;
    CheckedReader& operator=(CheckedReader&&) = delete;
    ~CheckedReader();

    const FileHeaderFields& fields() const { return fields_; }
    // False (and failed() afterwards) when fewer than size payload bytes remain.
    bool read(void* data, size_t size);
    template <typename T>
    bool read_pod(T& value) {
        return read(&value, sizeof value);
    }
    uint64_t remaining() const { return remaining_; }
    bool failed() const { return failed_; }
    // The error text when the payload was not read whole or its checksum differs, else nullopt.
    std::optional<std::string> finish();
    const std::string& path() const { return path_; }

private:
    CheckedReader(std::string path, std::FILE* file, FileHeaderFields fields, uint64_t payload_bytes,
                  uint64_t expected_checksum);
    std::string path_;
    std::FILE* file_ = nullptr;
    FileHeaderFields fields_;
    uint64_t payload_bytes_ = 0;
    uint64_t remaining_ = 0;
    uint64_t expected_checksum_ = 0;
    Checksum checksum_;
    bool failed_ = false;
};

}  // namespace mnemo::memory
