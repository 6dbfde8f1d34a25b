#include "core/errors.h"

#include <fmt/format.h>

namespace mnemo::core {

std::string_view code_name(ErrorCode code) {
    switch (code) {
        case ErrorCode::InvalidArgument:
            return "invalid_argument";
        case ErrorCode::Unauthenticated:
            return "unauthenticated";
        case ErrorCode::PermissionDenied:
            return "permission_denied";
        case ErrorCode::NotFound:
            return "not_found";
        case ErrorCode::MethodNotAllowed:
            return "method_not_allowed";
        case ErrorCode::AlreadyExists:
            return "already_exists";
        case ErrorCode::Conflict:
            return "conflict";
        case ErrorCode::PayloadTooLarge:
            return "payload_too_large";
        case ErrorCode::Rejected:
            return "rejected";
        case ErrorCode::Overloaded:
            return "overloaded";
        case ErrorCode::Internal:
            return "internal";
        case ErrorCode::Unavailable:
            return "unavailable";
    }
    return "internal";
}

Error from_storage(const storage::StorageError& failure) {
    switch (failure.code) {
        case MNEMO_E_NOT_FOUND:
            return Error{ErrorCode::NotFound, failure.message, "{}"};
        case MNEMO_E_EXISTS:
            return Error{ErrorCode::AlreadyExists, failure.message, "{}"};
        case MNEMO_E_CONFLICT: {
            std::string details = failure.current_version >= 0
                                      ? fmt::format("{{\"current_version\":{}}}", failure.current_version)
                                      : "{}";
            return Error{ErrorCode::Conflict, failure.message, details};
        }
        case MNEMO_E_INVALID:
            return Error{ErrorCode::InvalidArgument, failure.message, "{}"};
        case MNEMO_E_TOO_LARGE:
            return Error{ErrorCode::PayloadTooLarge, failure.message, "{}"};
        case MNEMO_E_BUSY:
        case MNEMO_E_UNAVAILABLE:
            return Error{ErrorCode::Unavailable, failure.message, "{}"};
        default:
            return Error{ErrorCode::Internal, failure.message, "{}"};
    }
}

}  // namespace mnemo::core
