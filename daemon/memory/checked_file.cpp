#include "memory/checked_file.h"

#include <bit>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include <utility>

#include <fmt/format.h>

namespace mnemo::memory {
namespace {

constexpr char kMagic[8] = {'M', 'N', 'E', 'M', 'O', 'V', 'I', 'X'};
constexpr uint32_t kFormatVersion = 1;

struct RawHeader {
    char magic[8];
    uint32_t version;
    uint32_t dimension;
    uint64_t cursor;
    uint64_t payload_bytes;
    uint64_t checksum;
};
static_assert(sizeof(RawHeader) == 40);

// The header's fields are part of the checksum, so a damaged cursor or
// dimension is refused like a damaged payload.
uint64_t seal(Checksum checksum, const RawHeader& header) {
    checksum.update(&header.version, sizeof header.version);
    checksum.update(&header.dimension, sizeof header.dimension);
    checksum.update(&header.cursor, sizeof header.cursor);
    checksum.update(&header.payload_bytes, sizeof header.payload_bytes);
    return checksum.value();
}

std::string errno_text() {
    return std::strerror(errno);
}

// The rename is durable only once the folder holding it is synced.
void sync_parent_folder(const std::string& path) {
    auto slash = path.rfind('/');
    std::string folder = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

void Checksum::mix(uint64_t word) {
    state_ = std::rotl(state_ ^ word, 27) * 0x9E3779B97F4A7C15ULL;
}

void Checksum::update(const void* data, size_t size) {
    if (size == 0) return;
    const auto* bytes = static_cast<const uint8_t*>(data);
    total_ += size;
    while (size > 0 && pending_size_ > 0) {
        pending_[pending_size_++] = *bytes++;
        --size;
        if (pending_size_ == 8) {
            uint64_t word;
            std::memcpy(&word, pending_, 8);
            mix(word);
            pending_size_ = 0;
        }
    }
    for (; size >= 8; size -= 8, bytes += 8) {
        uint64_t word;
        std::memcpy(&word, bytes, 8);
        mix(word);
    }
    std::memcpy(pending_, bytes, size);
    pending_size_ += size;
}

uint64_t Checksum::value() const {
    Checksum copy = *this;
    uint64_t last = 0;
    std::memcpy(&last, pending_, pending_size_);
    copy.mix(last);
    copy.mix(total_);
    return copy.state_ ^ (copy.state_ >> 31);
}

CheckedWriter::CheckedWriter(std::string path) : path_(std::move(path)), temp_path_(path_ + ".tmp") {
    file_ = std::fopen(temp_path_.c_str(), "wb");
    if (file_ == nullptr) {
        failure_ = fmt::format("cannot create {}: {}", temp_path_, errno_text());
        return;
    }
    RawHeader placeholder{};
    if (std::fwrite(&placeholder, sizeof placeholder, 1, file_) != 1) {
        failure_ = fmt::format("cannot write {}: {}", temp_path_, errno_text());
    }
}

CheckedWriter::~CheckedWriter() {
    if (file_ != nullptr) {
        std::fclose(file_);
        std::remove(temp_path_.c_str());
    }
}

void CheckedWriter::write(const void* data, size_t size) {
    if (!failure_.empty() || size == 0) return;
    checksum_.update(data, size);
    payload_bytes_ += size;
    if (std::fwrite(data, 1, size, file_) != size) {
        failure_ = fmt::format("cannot write {}: {}", temp_path_, errno_text());
    }
}

std::optional<std::string> CheckedWriter::commit(const FileHeaderFields& fields) {
    if (failure_.empty()) {
        RawHeader header{};
        std::memcpy(header.magic, kMagic, sizeof kMagic);
        header.version = kFormatVersion;
        header.dimension = fields.dimension;
        header.cursor = fields.cursor;
        header.payload_bytes = payload_bytes_;
        header.checksum = seal(checksum_, header);
        bool written = std::fseek(file_, 0, SEEK_SET) == 0 && std::fwrite(&header, sizeof header, 1, file_) == 1 &&
                       std::fflush(file_) == 0 && ::fsync(fileno(file_)) == 0;
        if (!written) failure_ = fmt::format("cannot write {}: {}", temp_path_, errno_text());
    }
    if (failure_.empty()) {
        int closed = std::fclose(file_);
        file_ = nullptr;
        if (closed != 0) {
            failure_ = fmt::format("cannot write {}: {}", temp_path_, errno_text());
        } else if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
            failure_ = fmt::format("cannot rename {} to {}: {}", temp_path_, path_, errno_text());
        } else {
            sync_parent_folder(path_);
            return std::nullopt;
        }
        std::remove(temp_path_.c_str());
    }
    return failure_;
}

std::variant<CheckedReader, std::string> CheckedReader::open(const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) return fmt::format("cannot open {}: {}", path, errno_text());
    RawHeader header{};
    long file_size = -1;
    bool sized =
        std::fseek(file, 0, SEEK_END) == 0 && (file_size = std::ftell(file)) >= 0 && std::fseek(file, 0, SEEK_SET) == 0;
    if (!sized || std::fread(&header, sizeof header, 1, file) != 1 ||
        std::memcmp(header.magic, kMagic, sizeof kMagic) != 0) {
        std::fclose(file);
        return fmt::format("{} is not a mnemod vector index file (no MNEMOVIX header)", path);
    }
    if (header.version != kFormatVersion) {
        std::fclose(file);
        return fmt::format("{} has vector index format version {}, this mnemod reads version {}", path, header.version,
                           kFormatVersion);
    }
    uint64_t expected_size = sizeof header + header.payload_bytes;
    if (static_cast<uint64_t>(file_size) != expected_size) {
        std::fclose(file);
        return fmt::format("{} is {} bytes long, its header says {}: the file is truncated or damaged", path, file_size,
                           expected_size);
    }
    FileHeaderFields fields{header.dimension, header.cursor};
    return CheckedReader(path, file, fields, header.payload_bytes, header.checksum);
}

CheckedReader::CheckedReader(std::string path, std::FILE* file, FileHeaderFields fields, uint64_t payload_bytes,
                             uint64_t expected_checksum)
    : path_(std::move(path)),
      file_(file),
      fields_(fields),
      payload_bytes_(payload_bytes),
      remaining_(payload_bytes),
      expected_checksum_(expected_checksum) {}

CheckedReader::CheckedReader(CheckedReader&& other) noexcept
    : path_(std::move(other.path_)),
      file_(std::exchange(other.file_, nullptr)),
      fields_(other.fields_),
      payload_bytes_(other.payload_bytes_),
      remaining_(other.remaining_),
      expected_checksum_(other.expected_checksum_),
      checksum_(other.checksum_),
      failed_(other.failed_) {}

CheckedReader::~CheckedReader() {
    if (file_ != nullptr) std::fclose(file_);
}

bool CheckedReader::read(void* data, size_t size) {
    if (failed_ || size > remaining_ || std::fread(data, 1, size, file_) != size) {
        failed_ = true;
        return false;
    }
    remaining_ -= size;
    checksum_.update(data, size);
    return true;
}

std::optional<std::string> CheckedReader::finish() {
    if (failed_ || remaining_ != 0) {
        return std::string("the payload does not hold the sections its header announces");
    }
    RawHeader header{};
    header.version = kFormatVersion;
    header.dimension = fields_.dimension;
    header.cursor = fields_.cursor;
    header.payload_bytes = payload_bytes_;
    if (seal(checksum_, header) != expected_checksum_) {
        return std::string("the payload fails its checksum");
    }
    return std::nullopt;
}

}  // namespace mnemo::memory
