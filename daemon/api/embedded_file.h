/*
 * api/embedded_file.h -- a file built into the binary (cmake/EmbedFiles.cmake):
 * the web console's static files, served without anything to install.
 */
#pragma once

namespace mnemo::api {

struct EmbeddedFile {
    const char* path;  // below its folder, "/"-separated: "js/main.js"
    const char* data;  // its bytes, NUL-terminated
    unsigned long size;
};

}  // namespace mnemo::api
