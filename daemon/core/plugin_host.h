/*
 * core/plugin_host.h -- the services mnemod lends its storage plugins.
 *
 * Owns the mnemo_host table handed to a plugin's open(): the word rules of
 * search (core/search_words.h, so a backend indexes and matches exactly as
 * the host excerpts) and mnemod's log. Plugins include nothing of mnemod but
 * the ABI header; this table is all of mnemod they call.
 */
#pragma once

#include "storage/abi/mnemo_plugin.h"

namespace mnemo::core {

// The process-wide table (static storage, safe from any thread).
const mnemo_host& plugin_host();

}  // namespace mnemo::core
