/*
 * console/socket_file.h -- the admin socket's file: before bind and after.
 *
 * Before bind: the parent folder is created when missing; a leftover socket
 * file that nobody listens on (a crash) is removed; a socket somebody
 * listens on, or a path that is not a socket, refuses the start with a
 * message naming the path. After bind: the file gets admin_socket_mode.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace mnemo::console {

// Makes `path` free for bind; the error says why it is not and what to do.
std::optional<std::string> prepare_socket_path(const std::string& path);
std::optional<std::string> apply_socket_mode(const std::string& path, uint32_t mode);

}  // namespace mnemo::console
