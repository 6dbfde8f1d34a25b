/*
 * core/errors.h -- the domain errors a request can end in.
 *
 * One Error value travels from wherever a rule fails up to the API layer,
 * which maps its code to an HTTP status and writes docs/api.md's error body. The
 * message is for the user: what went wrong, naming the key, id or field.
 */
#pragma once

#include "storage/backend.h"

#include <string>
#include <string_view>

namespace mnemo::core {

enum class ErrorCode {
    InvalidArgument,
    Unauthenticated,
    PermissionDenied,
    NotFound,
    MethodNotAllowed,
    AlreadyExists,
    Conflict,
    PayloadTooLarge,
    Rejected,
    Overloaded,
    Internal,
    Unavailable,
};

// Which dependency a 5xx came from, for /metrics: storage (the plugin, or
// the daemon itself) unless the embedder failed.
enum class FailedPart { Storage, Embedder };

struct Error {
    ErrorCode code = ErrorCode::Internal;
    std::string message;
    std::string details_json = "{}";  // always an object
    FailedPart failed_part = FailedPart::Storage;
};

std::string_view code_name(ErrorCode code);  // "invalid_argument", ...

inline Error invalid(std::string message) {
    return Error{ErrorCode::InvalidArgument, std::move(message), "{}"};
}
inline Error not_found(std::string message) {
    return Error{ErrorCode::NotFound, std::move(message), "{}"};
}
inline Error too_large(std::string message) {
    return Error{ErrorCode::PayloadTooLarge, std::move(message), "{}"};
}

// Maps a storage failure to the domain error the user sees.
Error from_storage(const storage::StorageError& failure);

}  // namespace mnemo::core
