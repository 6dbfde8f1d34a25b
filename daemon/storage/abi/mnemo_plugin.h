/*
 * mnemo_plugin.h -- the storage plugin ABI of mnemod.
 *
 * This header owns the boundary between mnemod and a storage backend. It is
 * plain C so that a backend can be built outside mnemod's tree, by another
 * compiler, and loaded with dlopen(). A backend is a shared object that
 * exports one symbol, MNEMO_PLUGIN_ENTRY_SYMBOL ("mnemo_plugin_entry"), a
 * function returning a descriptor (struct mnemo_plugin). mnemod refuses a
 * descriptor whose abi_version differs from the one it was built with.
 *
 * A backend includes nothing of mnemod but this header: what it needs of
 * the host (the word rules of search, equality by JSON value, logging)
 * comes as a table of host functions (mnemo_host) handed to open(), the way
 * Redis modules and SQLite extensions receive theirs.
 *
 * Operations are whole domain steps. mnemod validates input and applies the
 * rules that need no stored data (names, role defaults, temp: stripping, id
 * generation, timestamps); the backend applies the rules that need stored
 * data (versions, client-id idempotency, seq assignment, event-limit
 * eviction, usage sums, state deltas, TTL refresh), each operation atomically
 * in its own way (a transaction, a lock).
 *
 * Data crosses the boundary as structs of pointers and lengths (mnemo_str).
 * Pointers passed in are valid only during the call. Results flow back
 * through a mnemo_sink: the backend calls the sink's callbacks with pointers
 * valid only during each callback; mnemod copies what it keeps. Rows come
 * through row callbacks; an operation's scalar result (a version, counts,
 * "more rows remain") comes through the one typed result callback that
 * operation names, once, after its rows. JSON values
 * (content, metadata, state values...) are raw JSON text, stored and returned
 * byte for byte; a backend never re-encodes them.
 *
 * Times are Unix microseconds (int64). 0 in an *_at_us field means "none".
 * Every request carries now_us: backends never read a clock of their own, so
 * tests can move time and several daemons agree on what "expired" means.
 *
 * Thread safety: every function of the table may be called from several
 * threads at once, unless the plugin declares MNEMO_CAP_NONBLOCKING, in which
 * case mnemod calls it inline on its event loop thread only.
 *
 * Versioning: the table starts with its own size. mnemod checks abi_version
 * for an exact match (a changed struct layout bumps it); functions appended
 * to the end of mnemo_storage_ops within one ABI version are found through
 * ops_size, so an older plugin simply lacks them (NULL = unsupported).
 */
#ifndef MNEMO_PLUGIN_H
#define MNEMO_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 4: long-term memories (capture fields in append/rewrite/rewind, memory
 * records in export/import, the session list cursor's user): request structs
 * grew, so a plugin built for 3 is refused rather than read past its end.
 * 5: memory_reembed takes a new dimension and memory_count answers the app's
 * dimension and the vectors of another one (a change of model);
 * mnemo_session grew extracted_seq (memory.capture: extract's cursor).
 * 6: search and recall match any word, ranked by one BM25 (mnemo_host's
 * terms: folded and stemmed words; queries of content terms and exact
 * clauses), search takes match and order, memory_search match; a word rule
 * changed meaning, so every index a plugin built under 5 is stale.
 * 7: memory_list filters by status and metadata (the request grew); the
 * optional app_list and user_list (the apps and users a store holds, with
 * their counts) and the sink's activity callback appended.
 * 8: the optional session_tracks (a session's track names with their
 * counts) and the sink's track_info callback appended; the optional
 * check (a look at the store without opening it, for
 * `mnemod --check-config`) appended to the table. */
#define MNEMO_PLUGIN_ABI_VERSION 8
#define MNEMO_PLUGIN_ENTRY_SYMBOL "mnemo_plugin_entry"

#if defined(__GNUC__)
#define MNEMO_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define MNEMO_PLUGIN_EXPORT
#endif

/* A byte string; not NUL-terminated. ptr == NULL means "absent" (JSON null
 * or not given), which is distinct from an empty string (ptr != NULL, len 0). */
typedef struct mnemo_str {
    const char* ptr;
    size_t len;
} mnemo_str;

/* Status codes; the host maps them to HTTP statuses. */
enum mnemo_status {
    MNEMO_OK = 0,
    MNEMO_E_NOT_FOUND = 1,   /* session, key, lane absent (or expired, or deleted) */
    MNEMO_E_EXISTS = 2,      /* create of an existing live id */
    MNEMO_E_CONFLICT = 3,    /* expected_version mismatch, client-id reuse */
    MNEMO_E_BUSY = 4,        /* transient contention: retry later */
    MNEMO_E_UNAVAILABLE = 5, /* storage unreachable */
    MNEMO_E_INVALID = 6,     /* the request is not acceptable as given */
    MNEMO_E_TOO_LARGE = 7,   /* a state scope would exceed max_state_bytes */
    MNEMO_E_INTERNAL = 8     /* a bug or an unexpected storage failure */
};

/* Filled by the backend when a call returns non-zero. */
typedef struct mnemo_error {
    int code;                /* enum mnemo_status */
    int64_t current_version; /* with MNEMO_E_CONFLICT on a version mismatch, else -1 */
    char message[512];       /* NUL-terminated, for the user: what and which id */
} mnemo_error;

/* Capabilities a plugin declares; mnemod acts on them:
 *  - NONBLOCKING: every call runs inline on the event loop thread;
 *  - PERSISTENT: hard deletes leave finalize tombstones, recovery runs at
 *    startup after an unclean stop, the drain marks a clean shutdown;
 *  - SOFT_DELETE: required by storage.soft_delete: true (the default); a
 *    plugin without it refuses to start with that setting;
 *  - SEARCH: /v1/search is served (else 400);
 *  - SHARED: sweep steps ask the backend to coordinate with the other
 *    daemons on the store (mnemo_sweep_req.coordinate); without it the
 *    daemon sweeps alone, uncoordinated. */
#define MNEMO_CAP_NONBLOCKING (1u << 0) /* never blocks: call inline on the loop */
#define MNEMO_CAP_PERSISTENT (1u << 1)  /* data survives a restart */
#define MNEMO_CAP_SOFT_DELETE (1u << 2) /* honours soft deletes and purges */
#define MNEMO_CAP_SEARCH (1u << 3)      /* implements search */
#define MNEMO_CAP_SHARED (1u << 4)      /* several daemons may share one store */

/* State scopes. */
enum mnemo_scope { MNEMO_SCOPE_SESSION = 0, MNEMO_SCOPE_APP = 1, MNEMO_SCOPE_USER = 2 };

typedef struct mnemo_usage {
    int64_t input_tokens;
    int64_t output_tokens;
    int64_t cache_read_tokens;
    int64_t cache_write_tokens;
    int64_t total_tokens; /* already resolved by mnemod: given total, or input+output */
    double cost_usd;
} mnemo_usage;

/* Identifies a session. */
typedef struct mnemo_key {
    mnemo_str app;
    mnemo_str user;
    mnemo_str session_id;
} mnemo_key;

typedef struct mnemo_session {
    mnemo_str app, user, id;
    mnemo_str title;         /* "" when none */
    mnemo_str parent_id;     /* ptr NULL: null */
    mnemo_str metadata_json; /* raw JSON object; "{}" when none */
    int64_t created_at_us;
    int64_t updated_at_us;
    int64_t expires_at_us; /* 0: never */
    int64_t ttl_us;        /* the session's own TTL, 0: never; writes set expires_at = now + ttl */
    int64_t version;       /* 1 at creation; +1 per write */
    int64_t event_count;   /* visible events now */
    int64_t last_seq;      /* highest seq ever assigned; 0 when none */
    mnemo_usage usage;     /* sums over every persisted event, never decreased */
    int64_t deleted_at_us; /* 0: live; >0: soft-deleted (only from sweep/export calls) */
    int64_t extracted_seq; /* ABI 5: the extraction cursor (see session_extracted); 0: none
                              yet. Ignored in requests (import): a created session starts at 0 */
} mnemo_session;

/* A stored event, or one to store. */
typedef struct mnemo_event {
    int64_t seq; /* assigned by the backend; 0 in requests */
    mnemo_str id;
    int id_from_client;      /* the id was given by the client (idempotency applies) */
    mnemo_str invocation_id; /* ptr NULL: absent */
    mnemo_str author;
    mnemo_str role;
    mnemo_str content_json;     /* ptr NULL: absent */
    mnemo_str state_delta_json; /* temp: keys stripped; ptr NULL: absent */
    mnemo_str usage_json;       /* as given; ptr NULL: absent */
    mnemo_str tool_calls_json;  /* ptr NULL: absent */
    mnemo_str media_json;       /* ptr NULL: absent */
    mnemo_str metadata_json;    /* ptr NULL: absent */
    mnemo_str filter_key;       /* "" when none */
    int64_t timestamp_us;
    mnemo_usage usage;     /* parsed from usage_json, for the session's sums */
    int64_t deleted_at_us; /* 0: visible */
    /* The event's searchable text, made by mnemod from content strings (not
     * JSON keys or punctuation), tool call names, arguments and result
     * summaries, and media paths, joined by newlines. Set in every event
     * mnemod hands to a backend to store; "" when nothing is searchable.
     * Backends index it (MNEMO_CAP_SEARCH) and never return it. */
    mnemo_str search_text;
} mnemo_event;

/* One state change: value_json.ptr == NULL deletes the key. */
typedef struct mnemo_state_op {
    int scope; /* enum mnemo_scope */
    mnemo_str key;
    mnemo_str value_json;
} mnemo_state_op;

typedef struct mnemo_summary {
    mnemo_str filter_key;
    mnemo_str text;
    int64_t from_seq;
    int64_t up_to_seq;
    int64_t events_covered;
    int64_t created_at_us;
    mnemo_str source; /* "lua" | "command" | "client" */
} mnemo_summary;

typedef struct mnemo_track_event {
    int64_t seq;
    mnemo_str payload_json;
    int64_t timestamp_us;
} mnemo_track_event;

/* A lane: a stable conversation key pointing at its current session. */
typedef struct mnemo_lane {
    mnemo_str app, lane, user;
    mnemo_str session_id;
    mnemo_str platform;  /* "" when none */
    mnemo_str chat_type; /* "" when none, else dm|group|channel|thread */
    int64_t created_at_us;
    int64_t updated_at_us;
    int suspended;
    int resume_pending;
    mnemo_str resume_reason; /* ptr NULL: null */
    int was_auto_reset;
    mnemo_str auto_reset_reason; /* ptr NULL: null; else idle|daily|suspended */
    int reset_had_activity;
    int is_fresh_reset;
    int64_t restart_count; /* unclean restarts seen while resume_pending (recovery) */
    int64_t version;       /* compare-and-set counter: 1 at creation, +1 per write */
} mnemo_lane;

/* Why a session is being finalized. */
enum mnemo_finalize_reason { MNEMO_FINALIZE_EXPIRED = 1, MNEMO_FINALIZE_RESET = 2, MNEMO_FINALIZE_DELETED = 3 };

/* ---- typed results ------------------------------------------------------
 * The scalar result of an operation, handed once through the sink callback
 * its operation names, after the operation's rows. A backend that may roll
 * a write back delivers them only once it is committed, like its rows. */

/* events_rewrite. */
typedef struct mnemo_rewrite_result {
    int64_t version;  /* the session's version after the rewrite */
    int64_t replaced; /* visible events soft-deleted (the old transcript) */
} mnemo_rewrite_result;

/* events_rewind. */
typedef struct mnemo_rewind_result {
    int64_t version;      /* the session's version after the rewind (+1 even when nothing was undone) */
    int64_t rewound;      /* visible events soft-deleted */
    int64_t turns_undone; /* user turns undone, at most the turns asked for */
} mnemo_rewind_result;

/* user_purge: what was removed (tombstones left for finalize count as removed). */
typedef struct mnemo_purge_result {
    int64_t sessions;
    int64_t events; /* soft-deleted ones included */
    int64_t summaries;
    int64_t tracks; /* track events */
    int64_t lanes;
    int64_t state_keys; /* the user scope's keys */
    int64_t memories;   /* long-term memories, expired ones included (0 from a backend
                           without memory ops) */
} mnemo_purge_result;

/* stats: live rows now. */
typedef struct mnemo_stats_result {
    int64_t sessions; /* live sessions */
    int64_t events;   /* visible events of live sessions */
    int64_t lanes;
} mnemo_stats_result;

/* lane_recover. */
typedef struct mnemo_recover_result {
    int64_t resume_pending; /* lanes left resume_pending by this recovery */
    int64_t suspended;      /* lanes suspended by this recovery */
} mnemo_recover_result;

/* sweep_step: rows handled by this one step, per part. */
typedef struct mnemo_sweep_result {
    int64_t expired;          /* sessions expired and marked for finalize */
    int64_t state_scopes;     /* app and user state scopes expired */
    int64_t purged_sessions;  /* soft-deleted sessions purged */
    int64_t purged_events;    /* soft-deleted events purged */
    int64_t pruned_lanes;     /* idle lanes removed */
    int64_t expired_memories; /* long-term memories expired and removed (0 from a
                                 backend without memory ops) */
    int more;                 /* 1: some part hit the limit; step again */
    int skipped;              /* 1: another daemon sharing the store was sweeping
                                 (MNEMO_CAP_SHARED only); every count is 0 */
} mnemo_sweep_result;

/* finalize_done and finalize_done_batch. */
typedef struct mnemo_finalize_result {
    int64_t finalized; /* items whose finalize is done (now or before) */
    /* finalize_done_batch only (NULL, 0 otherwise): one outcome per item, in
     * request order: 1 finalized (now or before), 0 still pending (a failed
     * attempt counted), -MNEMO_E_NOT_FOUND no such session, -MNEMO_E_INVALID
     * not marked for finalize. */
    const int* outcomes;
    size_t n_outcomes;
} mnemo_finalize_result;

/*
 * Where results go. mnemod sets the callbacks of what the operation returns
 * (a backend skips a NULL one). Pointers handed to a callback are valid
 * during that callback only.
 * Rows:
 *  - session: a session row (get, list, create, ...)
 *  - state: a state entry of the given scope, one per key, after the session
 *  - event: an event row, in the order the operation defines
 *  - summary, track: rows of those kinds
 *  - lane: a lane row
 *  - lane_session: lane_get's current session with its visible event count
 *  - finalize_pending: finalize_list's session with why it is finalized
 *    (enum mnemo_finalize_reason) and its failed attempts so far
 *  - search_hit: search's hit, before the events of its context window
 *  - memory: a memory row (memory_get, memory_keys, memory_changes, ...)
 *  - memory_written: the outcome of item `index` of memory_write; created 1
 *    when it made a new memory, 0 when it answered a stored one
 *  - memory_hit: a keyword recall hit with its relevance (higher is better)
 *  - memory_key: a candidate key (memory_candidates)
 *  - activity: an app of app_list, a user of user_list (ABI 7)
 *  - track_info: a track of session_tracks with its counts (ABI 8)
 * Results (once per call, after the rows; see each operation):
 *  - has_more: session_get and events_list, when filter.limit cut the events;
 *    memory_list, when limit cut the memories
 *  - version: the session's version after state_patch or summary_put
 *  - rewritten, rewound, purged, stats, recovered, swept, finalized: the
 *    result struct of that operation
 *  - memory_feed, memory_embedded, memory_count: the result of those memory
 *    operations (see each request below)
 * The memory callbacks are appended at the end: a host built before them
 * never calls a memory operation, so no plugin reads past its sink.
 */
/* Memory rows and results, defined with the memory requests below; an
 * app's or a user's activity, with app_list. */
struct mnemo_memory;
struct mnemo_memory_feed_result;
struct mnemo_memory_count_result;
struct mnemo_activity;
struct mnemo_track_info;

typedef struct mnemo_sink {
    void* ctx;
    void (*session)(void* ctx, const mnemo_session* session);
    void (*state)(void* ctx, int scope, mnemo_str key, mnemo_str value_json);
    void (*event)(void* ctx, const mnemo_event* event);
    void (*summary)(void* ctx, const mnemo_summary* summary);
    void (*track)(void* ctx, const mnemo_track_event* track);
    void (*lane)(void* ctx, const mnemo_lane* lane);
    void (*lane_session)(void* ctx, const mnemo_session* session, int64_t visible_events);
    void (*finalize_pending)(void* ctx, const mnemo_session* session, int reason, int64_t failed_attempts);
    void (*search_hit)(void* ctx, int64_t seq);

    void (*has_more)(void* ctx);
    void (*version)(void* ctx, int64_t version);
    void (*rewritten)(void* ctx, const mnemo_rewrite_result* result);
    void (*rewound)(void* ctx, const mnemo_rewind_result* result);
    void (*purged)(void* ctx, const mnemo_purge_result* result);
    void (*stats)(void* ctx, const mnemo_stats_result* result);
    void (*recovered)(void* ctx, const mnemo_recover_result* result);
    void (*swept)(void* ctx, const mnemo_sweep_result* result);
    void (*finalized)(void* ctx, const mnemo_finalize_result* result);

    /* Long-term memories (see the memory section below). */
    void (*memory)(void* ctx, const struct mnemo_memory* memory);
    void (*memory_written)(void* ctx, size_t index, const struct mnemo_memory* memory, int created);
    void (*memory_hit)(void* ctx, const struct mnemo_memory* memory, double relevance);
    void (*memory_key)(void* ctx, int64_t key);
    void (*memory_feed)(void* ctx, const struct mnemo_memory_feed_result* feed);
    void (*memory_embedded)(void* ctx, int64_t stored);
    void (*memory_count)(void* ctx, const struct mnemo_memory_count_result* count);

    /* ABI 7: an app of app_list or a user of user_list. */
    void (*activity)(void* ctx, const struct mnemo_activity* activity);

    /* ABI 8: a track of session_tracks. */
    void (*track_info)(void* ctx, const struct mnemo_track_info* track);
} mnemo_sink;

/* ---- requests ---------------------------------------------------------- */

typedef struct mnemo_session_create_req {
    mnemo_key key;                   /* session_id always set (mnemod generates one when absent) */
    mnemo_str title;                 /* "" when none */
    mnemo_str parent_id;             /* ptr NULL: null */
    mnemo_str metadata_json;         /* "{}" when none */
    const mnemo_state_op* state_ops; /* initial state; any scope */
    size_t n_state_ops;
    int64_t ttl_us; /* 0: never expires */
    int64_t now_us;
    int64_t app_state_ttl_us; /* refresh of scopes touched by state_ops; 0: never */
    int64_t user_state_ttl_us;
    int64_t max_state_bytes; /* 0: unlimited */
} mnemo_session_create_req;
/* Result through the sink: session, then its merged state entries.
 * An existing live id: MNEMO_E_EXISTS. A soft-deleted or expired one is
 * purged and replaced by the new session. */

/* Event selection for reads. All fields combine (AND). */
typedef struct mnemo_event_filter {
    int64_t after_seq;    /* seq > after_seq; 0: from the start */
    int64_t after_ts_us;  /* timestamp > after_ts_us; 0: no bound */
    int64_t num_recent;   /* keep the newest N of what matches; 0: all */
    int64_t limit;        /* at most this many, oldest first; 0: no limit */
    mnemo_str roles;      /* comma-separated list; ptr NULL: any role */
    mnemo_str filter_key; /* ptr NULL or "": any; else filter_key == K or starts with K + "/" */
    int include_deleted;  /* also soft-deleted (rewound, replaced) events */
    int from_checkpoint;  /* also seq > latest summary's up_to_seq of filter_key */
} mnemo_event_filter;

typedef struct mnemo_session_get_req {
    mnemo_key key;
    int64_t now_us;
    int with_events; /* 0: session and state only */
    mnemo_event_filter filter;
} mnemo_session_get_req;
/* Result: session, its state entries (all three scopes; the host merges
 * with app:/user: prefixes), the checkpoint summary when from_checkpoint and
 * one exists, then matching events oldest first. When filter.limit is set and
 * more events match, has_more(). */

typedef struct mnemo_session_list_req {
    mnemo_str app;
    mnemo_str user; /* ptr NULL: every user of the app */
    int64_t now_us;
    int64_t active_within_us;     /* 0: any; else updated_at >= now - active_within */
    int64_t limit;                /* rows wanted; the backend returns at most limit */
    int64_t cursor_updated_at_us; /* 0: first page; else rows strictly after this cursor */
    mnemo_str cursor_id;          /* in the list's order (below) */
    mnemo_str cursor_user;        /* the cursor row's user, lists without a user only; ptr NULL: unknown */
} mnemo_session_list_req;
/* Result: sessions (no state entries), newest updated_at first, in the order
 *  - with a user: (updated_at desc, id desc);
 *  - without a user: (updated_at desc, user desc, id desc), since sessions
 *    of different users may share an id and an updated_at. The cursor is
 *    (updated_at, cursor_user, cursor_id). A cursor without its user (a
 *    page token from before cursor_user) lists, of every user, the rows
 *    updated before it and those updated at it with an id below cursor_id.
 * Strings compare byte for byte. */

typedef struct mnemo_session_delete_req {
    mnemo_key key;
    int64_t now_us;
    int hard; /* 1: purge now (events, state, summaries, tracks); 0: soft delete */
} mnemo_session_delete_req;
/* A soft delete marks the session for finalize (MNEMO_FINALIZE_DELETED); the
 * sweep purges it after purge_after once finalized. A hard delete purges the
 * events, state, summaries and tracks at once; then:
 *  - a persistent backend (MNEMO_CAP_PERSISTENT) keeps the session row as a
 *    tombstone when its finalize is not done yet, in the same transaction:
 *    deleted_at = 1 (deleted long ago, so the sweep purges it at its first
 *    step after the finalize is done, whatever purge_after says),
 *    event_count = 0 and a finalize mark (MNEMO_FINALIZE_DELETED unless
 *    already marked), so finalize_list returns it and a crash loses no
 *    finalize; a session already finalized is removed. A tombstone is
 *    invisible like any deleted row, and a create of its id replaces it.
 *    Nothing goes through the sink;
 *  - a non-persistent backend sends the session through session() before
 *    removing it, and mnemod keeps it in memory until it is finalized. */

typedef struct mnemo_user_purge_req {
    mnemo_str app;
    mnemo_str user;
    int64_t now_us;
} mnemo_user_purge_req;
/* Sessions never finalized (live, or marked and not yet finalized) still
 * get their finalize, with reason deleted unless already marked:
 *  - a persistent backend (MNEMO_CAP_PERSISTENT) leaves a finalize mark
 *    instead: their rows stay as tombstones, exactly as a hard delete leaves
 *    them (see mnemo_session_delete_req), in the same transaction; the other
 *    sessions are removed. Nothing goes through session();
 *  - a non-persistent backend sends each of them through session() before
 *    removing everything, so mnemod finalizes them from memory.
 * Result: purged() (the user's lanes are removed too, and the user's
 * memories, expired ones included, each entering the memory change feed as
 * removed: purged's `memories`); soft-deleted rows and the sessions left as
 * tombstones count as purged; tombstones of earlier hard deletes do not
 * count again. */

/* ---- capture from conversations (docs/memories.md, memory.capture: events) -----
 * mnemod decides which events of an append or rewrite become long-term
 * memories (the role filter, the text rule, the memory's id) and the backend
 * stores those memories in the same transaction as their events, so that
 * when the append answers they are there. A backend without memory ops
 * ignores captures and remove_captured; mnemod sends none to it. */

/* One event that becomes a memory of the session's user. */
typedef struct mnemo_capture {
    size_t event_index;  /* into the request's events */
    mnemo_str memory_id; /* a UUIDv7 mnemod generated */
    mnemo_str text;      /* the memory's text (content.text, or the content when it is a
                            string), 1..memory.max_text_bytes bytes */
} mnemo_capture;

/* What every capture of one request shares: the app's memory settings. */
typedef struct mnemo_capture_settings {
    mnemo_str name_space; /* memory.capture_namespace of the app */
    int64_t ttl_us;       /* memory.ttl of the app; 0: never expires */
    int embedder;         /* 1: an embedder is configured: status pending, else none */
} mnemo_capture_settings;
/* Each capture is stored, after its event got its seq, as a new memory of
 * key.user in key.app: id memory_id, text, namespace name_space, metadata
 * {}, session_id key.session_id, source (key.session_id, the event's seq),
 * created_at = updated_at = now, expires_at = now + ttl_us (0: never),
 * embedding pending (embedder) or none; it enters the memory change feed
 * like any write. No dedupe: a captured memory never answers for another
 * memory and no later write without an id answers with it (its life
 * follows its event's). A capture whose event_index is out of range, whose
 * text is empty or whose memory_id already names a live memory of the
 * user: INVALID naming it, and nothing of the request is stored.
 * A captured memory stays when its event is evicted by event_limit, when
 * its session expires or is deleted (soft or hard); it goes with a user
 * purge, with its own TTL, a memory_delete, and with the rewind or rewrite
 * that hides its event (remove_captured). A session id used again after a
 * delete starts its seqs again: the memories of the earlier session of that
 * id (created before the current one was) are not its events' memories. */

typedef struct mnemo_append_req {
    mnemo_key key;
    int64_t now_us;
    int has_expected_version;
    int64_t expected_version;
    int create_if_missing;
    int64_t new_session_ttl_us; /* ttl of a session created by create_if_missing */
    const mnemo_event* events;  /* non-partial events, ids and timestamps set */
    size_t n_events;
    const mnemo_state_op* state_ops; /* every event's delta in order, temp: stripped */
    size_t n_state_ops;
    int64_t event_limit;      /* 0: unlimited */
    int64_t app_state_ttl_us; /* 0: never */
    int64_t user_state_ttl_us;
    int64_t max_state_bytes; /* 0: unlimited */
    int want_state;          /* 1: send the merged state entries to the sink after the write */
    /* ABI 4: events that become memories (see "capture"
     * above); n_captures 0: none. A retry (retried=1) stores none. */
    const mnemo_capture* captures;
    size_t n_captures;
    mnemo_capture_settings capture;
} mnemo_append_req;

typedef struct mnemo_append_result {
    int64_t version;
    int64_t* seqs;          /* host-allocated, n_events long: the seq of each event */
    int64_t* timestamps_us; /* host-allocated, n_events long: stored timestamp (original on retry) */
    int64_t evicted;
    int retried; /* 1: every event already existed; nothing was written */
    int created; /* 1: create_if_missing created the session */
} mnemo_append_result;
/* Rules, all in one transaction (only visible events take part):
 *  - session absent: create_if_missing creates it (version 1, so the
 *    append makes it 2), else NOT_FOUND;
 *  - client ids, checked first: all already stored with equal author, role
 *    and content bytes -> retried=1, original seqs/timestamps, no change (a
 *    retry after a lost answer must not fail on the version it moved); some
 *    stored, or one stored with other content -> CONFLICT (current_version -1);
 *  - has_expected_version and version differs: CONFLICT with current_version;
 *  - seqs continue from last_seq; version += 1; usage sums added;
 *    event_count updated; state ops applied in order (null deletes);
 *    a scope over max_state_bytes (sum of key and value bytes) -> TOO_LARGE;
 *  - oldest visible events past event_limit are evicted (removed);
 *  - expires_at = now + ttl when the session's ttl > 0; app/user scopes
 *    touched get expires_at = now + their ttl when > 0. */

typedef struct mnemo_events_list_req {
    mnemo_key key;
    int64_t now_us;
    mnemo_event_filter filter;
} mnemo_events_list_req;
/* Result: events oldest first; has_more() when limit cut the list. */

typedef struct mnemo_rewrite_req {
    mnemo_key key;
    int64_t now_us;
    int has_expected_version;
    int64_t expected_version;
    const mnemo_event* events; /* the new transcript */
    size_t n_events;
    int64_t event_limit;
    /* ABI 4 (see "capture" above): captures of the new
     * transcript (event_index into events), stored after the old events'
     * memories are removed; n_captures 0: none. */
    const mnemo_capture* captures;
    size_t n_captures;
    mnemo_capture_settings capture;
    int remove_captured; /* 1: the memories captured from the old visible events are removed */
} mnemo_rewrite_req;
/* Old visible events are soft-deleted (deleted_at = now); new ones get new
 * seqs after last_seq, the event limit applies, their state deltas are
 * stored as given but not applied again (they were applied when first
 * appended), usage is not added again. version += 1, TTL refreshed.
 * With remove_captured, the memories captured from the old visible events
 * are removed (each enters the feed as removed, like memory_delete); then
 * the captures of the new transcript are stored, also those of new events
 * the event limit evicts at once. Result: rewritten(). */

typedef struct mnemo_rewind_req {
    mnemo_key key;
    int64_t now_us;
    int64_t turns;
    int has_expected_version;
    int64_t expected_version;
    int remove_captured; /* ABI 4: 1: the memories captured from the events
                            undone are removed (see "capture" above) */
} mnemo_rewind_req;
/* Soft-deletes the last `turns` user turns (each: the latest visible event
 * with role "user" and every visible event after it). version += 1 even when
 * nothing was undone. With remove_captured, the memories captured from the
 * undone events are removed in the same transaction (each enters the feed
 * as removed, like memory_delete). Result: the earliest undone user event
 * through event() (absent when nothing was undone), then rewound(). */

typedef struct mnemo_state_patch_req {
    int scope;     /* enum mnemo_scope: the endpoint's scope */
    mnemo_key key; /* app always; user for user and session scopes; session_id for session scope */
    int64_t now_us;
    int has_expected_version; /* session scope only */
    int64_t expected_version;
    const mnemo_state_op* ops; /* any scope for session patches (app:/user: prefixes split) */
    size_t n_ops;
    int64_t app_state_ttl_us;
    int64_t user_state_ttl_us;
    int64_t max_state_bytes;
} mnemo_state_patch_req;
/* Session scope: version += 1, session TTL refreshed; result: the merged
 * state entries, then version(). App/user scope: that scope's entries.
 * A session patch on an absent session: NOT_FOUND. */

typedef struct mnemo_state_get_req {
    int scope; /* MNEMO_SCOPE_APP or MNEMO_SCOPE_USER */
    mnemo_str app;
    mnemo_str user;
    int64_t now_us;
} mnemo_state_get_req;
/* Result: the scope's entries ({} for an absent or expired scope). */

typedef struct mnemo_state_delete_req {
    int scope; /* MNEMO_SCOPE_APP or MNEMO_SCOPE_USER */
    mnemo_str app;
    mnemo_str user;
    mnemo_str key;
    int64_t now_us;
    int64_t app_state_ttl_us;
    int64_t user_state_ttl_us;
} mnemo_state_delete_req;
/* Deleting an absent key: NOT_FOUND. */

typedef struct mnemo_summary_put_req {
    mnemo_key key;
    int64_t now_us;
    mnemo_str filter_key;
    mnemo_str text;
    int64_t up_to_seq; /* 0: the session's last_seq */
    mnemo_str source;
    int64_t events_covered; /* -1: count visible events of filter_key in [from_seq, up_to_seq] */
} mnemo_summary_put_req;
/* from_seq = previous summary's up_to_seq + 1 for the filter key (1 for the
 * first). up_to_seq below from_seq or above last_seq: INVALID. version += 1.
 * Result: the stored summary, then version(). */

typedef struct mnemo_summary_list_req {
    mnemo_key key;
    int64_t now_us;
} mnemo_summary_list_req;
/* Result: the latest summary per filter key, ordered by filter key. */

typedef struct mnemo_track_append_req {
    mnemo_key key;
    mnemo_str track;
    int64_t now_us;
    mnemo_str payload_json;
    int64_t timestamp_us;
} mnemo_track_append_req;
/* seq counts from 1 per (session, track); refreshes the session TTL, leaves
 * version unchanged. Result: track(). */

typedef struct mnemo_track_list_req {
    mnemo_key key;
    mnemo_str track;
    int64_t now_us;
    int64_t after_seq;
    int64_t limit;
} mnemo_track_list_req;

/* ABI 8, optional: the tracks a session holds, for a reader who does not
 * know their names (the web console). */
typedef struct mnemo_track_info {
    mnemo_str track;
    int64_t events;            /* its track events */
    int64_t last_seq;          /* the highest seq */
    int64_t last_timestamp_us; /* the timestamp of the last_seq event */
} mnemo_track_info;

typedef struct mnemo_session_tracks_req {
    mnemo_key key;
    int64_t now_us;
    mnemo_str after_track; /* ptr NULL: from the first; else only names after it */
    int64_t limit;         /* rows wanted; the backend returns at most limit */
} mnemo_session_tracks_req;
/* Result: track_info() per track of the live session holding at least one
 * track event, in track order (bytes), at most limit. Absent, expired or
 * soft-deleted session: NOT_FOUND. A limit below 1: INVALID. */

typedef struct mnemo_stats_req {
    int64_t now_us;
} mnemo_stats_req;
/* Result: stats(). */

/* ---- lanes ------------------------------------------------------------ */

typedef struct mnemo_lane_get_req {
    mnemo_str app;
    mnemo_str lane;
    int64_t now_us;
} mnemo_lane_get_req;
/* Result: the lane (NOT_FOUND when absent), then its current session through
 * lane_session() when that session is live (absent when it expired or was
 * deleted). */

/* Writes a lane with compare-and-set, optionally creating its new session
 * and marking the session it moves away from for finalize, all in one
 * transaction. */
typedef struct mnemo_lane_write_req {
    int64_t now_us;
    int64_t expected_version; /* 0: the lane must not exist; else its current version */
    mnemo_lane lane;          /* the new row; version and created_at are set by the backend */
    int create_session;       /* 1: create lane.session_id with `session` in the same transaction */
    mnemo_session_create_req session;
    mnemo_str finalize_session_id; /* ptr NULL: none; else mark this session of lane.user
                                      for finalize with MNEMO_FINALIZE_RESET */
} mnemo_lane_write_req;
/* A version mismatch (or an existing lane with expected_version 0):
 * CONFLICT with current_version. Result: the stored lane, then the created
 * session (if any) with its state entries. */

typedef struct mnemo_lane_list_req {
    mnemo_str app;
    int64_t now_us;
    int64_t active_within_us; /* 0: any; else updated_at >= now - active_within */
    int64_t limit;
    int64_t cursor_updated_at_us; /* 0: first page; else rows strictly after (updated_at desc, lane desc) */
    mnemo_str cursor_lane;
} mnemo_lane_list_req;
/* Result: lanes, newest updated_at first, ties by lane descending. */

/* Recovery after an unclean stop (no clean-shutdown marker). */
typedef struct mnemo_lane_recover_req {
    int64_t now_us;
    int64_t resume_window_us;     /* lanes with updated_at >= now - window become resume_pending */
    int64_t stuck_after_restarts; /* a lane resume_pending across this many restarts becomes suspended */
} mnemo_lane_recover_req;
/* For every lane that is not suspended: if it is already resume_pending,
 * restart_count += 1; else if updated_at >= now - window, resume_pending = 1,
 * resume_reason = "restart_interrupted", restart_count = 1. A lane whose
 * restart_count reaches stuck_after_restarts becomes suspended (resume_pending
 * cleared). updated_at is not changed. Result: recovered(). */

/* ---- sweeps and finalize ----------------------------------------------- */

/* One bounded step of the expiry sweep. */
typedef struct mnemo_sweep_req {
    int64_t now_us;
    int64_t limit;                 /* rows per kind at most */
    int64_t purge_before_us;       /* purge soft-deleted rows deleted before this; 0: none */
    int64_t prune_lanes_before_us; /* drop lanes with updated_at before this; 0: never */
    int coordinate;                /* 1: other daemons may sweep this store: run this step only
                                      when no other daemon is sweeping it, else skip it (result
                                      skipped = 1). mnemod sets it for MNEMO_CAP_SHARED plugins
                                      only; 0: this daemon sweeps alone, no coordination */
} mnemo_sweep_req;
/* In one transaction, each part at most `limit` rows, found by index range
 * scans (cost grows with the expired count, never the live count):
 *  - live sessions with 0 < expires_at <= now: marked for finalize with
 *    MNEMO_FINALIZE_EXPIRED and soft-deleted (deleted_at = now) so they stay
 *    invisible (expired);
 *  - app and user state scopes with 0 < expires_at <= now: removed
 *    (state_scopes);
 *  - soft-deleted sessions with deleted_at < purge_before whose finalize is
 *    done (or never needed): purged with events, summaries, tracks and
 *    state; soft-deleted events with deleted_at < purge_before: purged;
 *    (purged_sessions, purged_events);
 *  - lanes with updated_at < prune_lanes_before: removed (pruned_lanes);
 *  - memories with 0 < expires_at <= now: removed, entering the memory
 *    change feed as removed (expired_memories);
 *  - removals in the memory change feed with removed_at < purge_before:
 *    forgotten, which moves the feed's horizon past them.
 * Result: swept(), with more = 1 when any part hit the limit. */

typedef struct mnemo_finalize_list_req {
    int64_t now_us;
    int64_t limit;
} mnemo_finalize_list_req;
/* Sessions marked for finalize and not yet finalized (live, soft-deleted or
 * expired alike), oldest mark first, each through finalize_pending(). */

typedef struct mnemo_finalize_done_req {
    mnemo_key key;
    int64_t now_us;
    int succeeded;        /* 1: finalized; 0: one failed attempt (attempts += 1) */
    int64_t max_attempts; /* with succeeded 0: attempts reaching this marks it finalized anyway */
} mnemo_finalize_done_req;
/* Finalize state is stored, so a restart never finalizes a session twice.
 * Result: finalized(), with finalized 0 or 1 and no outcomes. */

/* One session's finalize outcome in a batch. */
typedef struct mnemo_finalize_outcome {
    mnemo_key key;
    int succeeded; /* 1: finalized; 0: one failed attempt (attempts += 1) */
} mnemo_finalize_outcome;

typedef struct mnemo_finalize_done_batch_req {
    const mnemo_finalize_outcome* items;
    size_t n_items;
    int64_t max_attempts; /* as in mnemo_finalize_done_req, for every item */
    int64_t now_us;
} mnemo_finalize_done_batch_req;
/* finalize_done for every item, all in one transaction (one commit for a
 * whole finalize pass instead of one per session). An item that cannot be
 * recorded (its session is gone, or was never marked) is skipped and does
 * not fail the others. Result: finalized(), with one outcome per item and
 * finalized the number of items whose outcome is 1. */

/* ---- search (MNEMO_CAP_SEARCH) ------------------------------------------ */

typedef struct mnemo_search_req {
    mnemo_str app;
    mnemo_str q;               /* as the user typed it, trimmed; "" : no text query */
    mnemo_str user;            /* ptr NULL: every user of the app */
    mnemo_str channel;         /* ptr NULL: any; else session metadata.channel or
                                  metadata.platform equals it */
    mnemo_str role;            /* ptr NULL: any role; else the hit event's role */
    mnemo_str exclude_session; /* ptr NULL: none; else this session id is left out */
    int64_t limit;             /* sessions at most */
    int64_t max_hits;          /* hits per session at most */
    int64_t context;           /* visible events each side of a hit */
    int64_t now_us;
    int match;                 /* ABI 6: enum mnemo_match */
    int order;                 /* ABI 6: enum mnemo_search_order, of each session's hits */
} mnemo_search_req;
enum mnemo_search_order {
    MNEMO_ORDER_RELEVANCE = 0, /* each session's hits best first */
    MNEMO_ORDER_TIME = 1       /* the same hits, oldest first */
};
/* Only live sessions and visible events are searched (soft-deleted,
 * rewound, replaced, evicted and purged events never match). Matching and
 * ranking are defined on mnemo_event.search_text and must agree across
 * backends (the conformance suite holds them to it; see core/search.h for
 * the rules): an event matches as mnemo_host.query_matches says; its
 * relevance is mnemo_host's BM25 (plugins/host/bm25.h) over the live
 * visible events of the request's user (of the app without a user), before
 * the other filters. Sessions rank by their best event, best first (ties:
 * the later updated_at, then the greater id); a session's hits are its
 * max_hits best events (ties: the later seq), in `order`.
 * Result, per session: session(), then for each hit search_hit(seq)
 * followed by the visible events with seq in the hit's context window,
 * oldest first, through event() (the hit itself included). Empty q: the
 * most recently updated live sessions that pass the filters, newest first,
 * with no hits. */

/* ---- export and import -------------------------------------------------- */

enum mnemo_record_kind {
    MNEMO_RECORD_SESSION = 1, /* session */
    MNEMO_RECORD_EVENT = 2,   /* key, event (visible events only) */
    MNEMO_RECORD_STATE = 3,   /* scope, key (app; user for user and session scopes;
                                 session_id for session scope), state_key, value_json,
                                 expires_at_us (app and user scopes; 0 never) */
    MNEMO_RECORD_SUMMARY = 4, /* key, summary (every stored summary, not only the latest) */
    MNEMO_RECORD_TRACK = 5,   /* key, track, track_event */
    MNEMO_RECORD_LANE = 6,    /* lane (every field, version and restart_count included) */
    MNEMO_RECORD_MEMORY = 7   /* memory (vector included); folded_text on import */
};

/* One stored item, as export gives it and import takes it. Only the fields
 * of its kind are set; pointers are NULL otherwise. */
typedef struct mnemo_record {
    int kind; /* enum mnemo_record_kind */
    mnemo_key key;
    const mnemo_session* session;
    const mnemo_event* event;
    int scope; /* enum mnemo_scope, with MNEMO_RECORD_STATE */
    mnemo_str state_key;
    mnemo_str value_json;
    int64_t expires_at_us;
    const mnemo_summary* summary;
    mnemo_str track;
    const mnemo_track_event* track_event;
    const mnemo_lane* lane;
    /* ABI 4: */
    const struct mnemo_memory* memory; /* with MNEMO_RECORD_MEMORY; its key, text_version and
                                          change_seq are the source store's, never imported */
    mnemo_str folded_text;             /* import of a memory: its text folded by mnemod (the
                                          dedupe key, as mnemo_memory_input.folded_text) */
} mnemo_record;

typedef struct mnemo_record_sink {
    void* ctx;
    void (*record)(void* ctx, const mnemo_record* record);
    void (*more)(void* ctx); /* once, after the records: sessions (memories) remain after this step */
} mnemo_record_sink;

typedef struct mnemo_export_req {
    mnemo_str app;
    int64_t now_us;
    int64_t limit;         /* sessions per step at most */
    mnemo_str cursor_user; /* ptr NULL: first step; else sessions strictly after */
    mnemo_str cursor_id;   /* (cursor_user, cursor_id) in (user, id) order */
    /* ABI 4; mnemod sets them only for a backend with memory ops: */
    int memories;       /* 1: this step lists memories (limit: memories per step) */
    int64_t cursor_key; /* memories: keys strictly after this one; 0: first step */
} mnemo_export_req;
/* One step of an export of one app's live data (soft-deleted and expired
 * items left out). The first step (cursor_user.ptr == NULL) starts with the
 * app state, every user state and every lane of the app. Then, per session
 * in (user, id) order: the session, its session-scope state, its visible
 * events in seq order, its summaries, its track events. more() when
 * sessions remain after this step; the host continues from the last
 * session it received.
 * With memories = 1 (the cursor_user/cursor_id fields unused), the step
 * lists the app's live memories instead (expired ones left out), in key
 * order after cursor_key, at most limit, each as a MNEMO_RECORD_MEMORY
 * record whose memory carries its vector when it holds one; more() when
 * memories remain after this step; the host continues from the last key it
 * received. mnemod runs the memory steps after the session steps, and only
 * on a backend with memory ops, which must serve them. */

typedef struct mnemo_import_req {
    int64_t now_us;
    const mnemo_record* records;
    size_t n_records;
    /* ABI 4: memory.dimensions, as memory_write takes it (0: each
     * app's first stored vector fixes its dimension). */
    int64_t memory_dimensions;
} mnemo_import_req;
/* Stores the records as given, keeping ids, seqs, versions, timestamps and
 * counters (a session's version, last_seq, event_count, usage and
 * expires_at are taken from its record, not recomputed), in one
 * transaction. Each record replaces the item with the same identity
 * (session: app, user, id; event: session and seq; state: scope, owner and
 * key; summary: session, filter key, up_to_seq; track event: session, track
 * and seq; lane: app and lane), so importing the same records twice leaves
 * the store as after the first time. A session record precedes its own
 * events, state, summaries and tracks in the same or an earlier call; a
 * soft-deleted session of that id is replaced. Events are indexed for
 * search like appended ones.
 * Memory records (only to a backend with memory ops; one without refuses
 * them with INVALID): identity (app, user, id). The record replaces the
 * stored memory of that identity (an expired one counts as absent) or
 * creates one, keeping namespace, text, metadata, session_id, source,
 * status, model, vector, created_at, updated_at and expires_at as given; a
 * pending one stays pending, so the embedder picks it up; a record expired
 * by now_us removes the stored memory and stores nothing. The key is the
 * store's own: a replaced memory keeps its key, a created one gets a new
 * one; text_version starts at 1 and moves on when a replacement changes
 * the text (an embedding made for the old text is then refused). A record
 * equal in every field to the stored memory changes nothing; any other
 * enters the memory change feed as a write, so the index follows. Checked
 * for the whole call before anything is stored, INVALID naming the record
 * index: text absent or empty, folded_text absent, an unknown status, READY
 * without a vector, a vector whose dimension differs from
 * memory_dimensions (when > 0) or from the app's (stored, or fixed by an
 * earlier record of the call; the first vector fixes it). */

/* ---- long-term memories (docs/memories.md) --------------------------------------
 * A memory is one user's text in one app, with an optional vector. The
 * backend keeps the rows (vectors included: they are durable there) and the
 * rules that need stored data (retry by id, dedupe by folded text, the app's
 * dimension, TTL). mnemod keeps the vector index, derived from the rows: it
 * follows every change through the memory change feed (memory_changes), so
 * several daemons on one shared store each keep their own index in step.
 *
 * Every memory has a key: a 64-bit row id the backend assigns at creation,
 * never changes, and never gives to another memory (SQLite AUTOINCREMENT, an
 * InnoDB auto-increment). The index and the feed name memories by key.
 *
 * mnemod calls the memory operations from threads of its own (the index
 * follower, the embedding pipeline, recall), also on a MNEMO_CAP_NONBLOCKING
 * backend: a backend with memory ops is safe to call from any thread. */

enum mnemo_embedding_status {
    MNEMO_EMBEDDING_NONE = 0,    /* no vector and no embedder: keyword recall only */
    MNEMO_EMBEDDING_PENDING = 1, /* waiting for the embedder (an older vector may still be held) */
    MNEMO_EMBEDDING_READY = 2,   /* the vector belongs to the current text */
    MNEMO_EMBEDDING_FAILED = 3   /* the embedder gave up; the memory is kept */
};

/* A float vector; values NULL: none. */
typedef struct mnemo_vector {
    const float* values;
    size_t dims;
} mnemo_vector;

typedef struct mnemo_memory {
    int64_t key; /* the backend's row id (see above) */
    mnemo_str app, user, id;
    mnemo_str name_space;      /* "" is the default namespace */
    mnemo_str text;            /* ptr NULL in change-feed rows of removed memories */
    mnemo_str metadata_json;   /* raw JSON object, "{}" when none */
    mnemo_str session_id;      /* ptr NULL: null */
    mnemo_str source_session;  /* ptr NULL: not captured from an event */
    int64_t source_seq;        /* the captured event's seq; 0 when not captured */
    int embedding;             /* enum mnemo_embedding_status */
    mnemo_str embedding_model; /* ptr NULL: null */
    mnemo_vector vector;       /* set only where the operation says so */
    int64_t text_version;      /* 1 at creation, +1 per text change: an embedding made for
                                  an older text is refused (memory_embed) */
    int64_t created_at_us;
    int64_t updated_at_us;
    int64_t expires_at_us; /* 0: never */
    int64_t change_seq;    /* the feed position of this row's latest change */
    int64_t removed_at_us; /* change feed only: > 0 the memory is gone (deleted, expired,
                              purged, or its captured event rewound or
                              rewritten) */
} mnemo_memory;

/* One memory to write (memory_write), or the fields of a patch (memory_patch:
 * ptr NULL / values NULL: leave as stored). */
typedef struct mnemo_memory_input {
    mnemo_str id;              /* the client's id, or one mnemod generated */
    int id_from_client;        /* 1: retry/update by id applies; 0: dedupe applies */
    mnemo_str text;            /* patch: ptr NULL keeps the text */
    mnemo_str folded_text;     /* with text, made by mnemod: the dedupe key (case, accents,
                                  white space folded) */
    mnemo_str name_space;      /* ptr NULL: absent ("" for a new memory) */
    mnemo_str metadata_json;   /* ptr NULL: absent ("{}" for a new memory) */
    mnemo_str session_id;      /* ptr NULL: absent (null for a new memory) */
    mnemo_vector vector;       /* values NULL: none given */
    mnemo_str embedding_model; /* with a vector; ptr NULL: null */
    int64_t ttl_us;            /* resolved by mnemod (ttl_seconds, else memory.ttl); 0: never */
} mnemo_memory_input;

typedef struct mnemo_memory_write_req {
    mnemo_str app;
    mnemo_str user;
    const mnemo_memory_input* items;
    size_t n_items;
    int embedder;       /* 1: an embedder is configured: a text without a vector is pending, else none */
    int64_t dimensions; /* memory.dimensions; 0: the app's first stored vector fixes its dimension */
    int64_t now_us;
} mnemo_memory_write_req;
/* All items or none, in one transaction, in order. Expired memories count
 * as absent everywhere. Per item:
 *  - id_from_client and the user has a live memory of that id: when text,
 *    namespace and metadata equal the stored ones (absent ones count as
 *    equal; vector and session_id do not take part) it is a retry: nothing
 *    changes, created 0. Otherwise an update: given fields replace stored
 *    ones; a changed text bumps text_version and drops the vector unless one
 *    is given (status pending with an embedder, else none); a given vector
 *    makes it ready with embedding_model; updated_at = now, expires_at =
 *    now + ttl_us (0: never); created 0;
 *  - no client id: a live memory of the user in the same namespace whose
 *    folded text is equal (earlier items of the batch included) answers
 *    instead: only its updated_at and expires_at move; created 0;
 *  - otherwise a new memory, created 1, status ready (vector given),
 *    pending (embedder) or none.
 * A vector whose dims differ from `dimensions` (when > 0) or from the app's
 * fixed dimension: INVALID naming the item index and both dimensions; the
 * app's first vector fixes the dimension in the same transaction.
 * An item without text is accepted only as a retry or update of a live
 * memory of its client id (an earlier item of the batch included); an id
 * mnemod generated that already names a live memory of the user is refused.
 * Both INVALID naming the item index, like an empty text.
 * Result: memory_written() per item, in order (rows without vectors). */

typedef struct mnemo_memory_ref {
    mnemo_str app, user, id;
    int64_t now_us;
} mnemo_memory_ref;

typedef struct mnemo_memory_get_req {
    mnemo_memory_ref ref;
    int with_vector;
} mnemo_memory_get_req;
/* Result: memory(), with its vector when with_vector. Absent: NOT_FOUND. */

typedef struct mnemo_memory_patch_req {
    mnemo_memory_ref ref;
    mnemo_memory_input fields; /* id and id_from_client unused */
    int embedder;
    int64_t dimensions;
} mnemo_memory_patch_req;
/* An update as memory_write makes it (never a retry: updated_at and
 * expires_at always move). Absent: NOT_FOUND. Result: memory(). */

typedef struct mnemo_memory_delete_req {
    mnemo_memory_ref ref;
} mnemo_memory_delete_req;
/* Removes the memory at once (it enters the feed as removed); a later
 * write of its id creates a new memory with a new key. Absent: NOT_FOUND.
 * Nothing goes through the sink. */

typedef struct mnemo_memory_list_req {
    mnemo_str app;
    mnemo_str user;
    mnemo_str name_space; /* ptr NULL: every namespace */
    mnemo_str session_id; /* ptr NULL: any */
    int64_t limit;
    int64_t cursor_updated_at_us; /* 0: first page; else rows strictly after (updated_at desc, id desc) */
    mnemo_str cursor_id;
    int64_t now_us;
    /* ABI 7: */
    const mnemo_str* metadata_keys;        /* top-level keys whose values must equal... */
    const mnemo_str* metadata_values_json; /* ...these scalars by JSON value (host's json_member_equals) */
    size_t n_metadata;
    uint32_t statuses; /* 0: any; else only memories whose status is in this set of
                          (1u << enum mnemo_embedding_status) */
} mnemo_memory_list_req;
/* Result: live memories newest first (updated_at desc, id desc) passing
 * every filter, at most limit, without vectors; has_more() when more
 * remain. A limit below 1: INVALID. */

/* Exact filters of recall, applied before ranking. */
typedef struct mnemo_memory_filter {
    mnemo_str app;
    mnemo_str user;                        /* ptr NULL: every user of the app */
    mnemo_str name_space;                  /* ptr NULL: every namespace */
    mnemo_str session_id;                  /* ptr NULL: any */
    const mnemo_str* metadata_keys;        /* top-level keys whose values must equal... */
    const mnemo_str* metadata_values_json; /* ...these scalars by JSON value (host's json_equal) */
    size_t n_metadata;
    int64_t created_after_us;  /* 0: no bound; else created_at > it */
    int64_t created_before_us; /* 0: no bound; else created_at < it */
    int64_t now_us;
} mnemo_memory_filter;

typedef struct mnemo_memory_search_req {
    mnemo_memory_filter filter;
    mnemo_str q;   /* trimmed, not empty: read by the search rules (core/search_words.h) */
    int64_t limit; /* candidates at most */
    int match;     /* ABI 6: enum mnemo_match */
} mnemo_memory_search_req;
/* Keyword recall: live memories passing the filter whose text matches q as
 * an event's search_text would (mnemo_host.query_matches), best first by
 * relevance (plugins/host/bm25.h: higher is better), ties by updated_at
 * desc, id desc. Result: memory_hit() per memory, without vectors. N, df
 * and the average length of BM25 count the live memories of the filter's
 * app and user (the app when no user), before the other filters. A limit
 * below 1: INVALID. */

typedef struct mnemo_memory_keys_req {
    mnemo_memory_filter filter; /* applied: keys that fail it are left out */
    const int64_t* keys;
    size_t n_keys;
    int with_vector;
} mnemo_memory_keys_req;
/* The live memories among keys that pass the filter, in any order, through
 * memory(). mnemod reads the rows of vector-index hits this way, and the
 * exact-scan candidates of filters the index cannot decide. */

typedef struct mnemo_memory_candidates_req {
    mnemo_memory_filter filter;
    int64_t limit;
} mnemo_memory_candidates_req;
/* Keys of live memories passing the filter with a vector, at most limit + 1
 * (so mnemod knows the set is larger than it would scan exactly), through
 * memory_key(). "With a vector" includes a pending memory still holding its
 * old vector (memory_reembed). A limit below 1: INVALID. */

typedef struct mnemo_memory_changes_req {
    int64_t after_seq; /* the cursor: changes with change_seq > after_seq */
    int64_t limit;
} mnemo_memory_changes_req;
/* The memory change feed, in change_seq order, across every app: for each
 * memory written, re-embedded or removed since after_seq, its current row
 * with its vector (or, removed, a row with key, app, user and
 * removed_at_us), then memory_feed() once. A memory changed several times
 * since the cursor appears once, at its latest change. change_seq is
 * assigned in commit order, so a cursor never skips a change that commits
 * later. A cursor below the feed's horizon (removals older than it were
 * forgotten) must start again from 0, which lists every live memory: such
 * a cursor is answered with no rows and memory_feed() whose last_seq is the
 * cursor and whose horizon is above it. A memory expired but not yet swept
 * is still listed as stored (its expires_at_us says so; memory_keys leaves
 * it out); the sweep's removal follows. A limit below 1: INVALID. */

typedef struct mnemo_memory_feed_result {
    int64_t last_seq; /* the cursor to continue from */
    int64_t horizon;  /* the oldest cursor the feed still serves */
    int more;         /* 1: limit cut the feed */
} mnemo_memory_feed_result;

typedef struct mnemo_embedding_update {
    int64_t key;
    int64_t text_version; /* the text the embedding was made for */
    int status;           /* MNEMO_EMBEDDING_READY or MNEMO_EMBEDDING_FAILED */
    mnemo_vector vector;  /* with READY */
    mnemo_str model;      /* with READY */
} mnemo_embedding_update;

typedef struct mnemo_memory_embed_req {
    const mnemo_embedding_update* items;
    size_t n_items;
    int64_t dimensions;
    int64_t now_us;
} mnemo_memory_embed_req;
/* Stores the embedder's answers in one transaction. An item whose memory is
 * gone or whose text_version moved on is skipped (its text changed while it
 * was embedded: the newer text is pending again), and so is one whose memory
 * is no longer pending (a client gave its vector meanwhile). A READY vector of another
 * dimension than the app's (dimensions when > 0, else the app's stored one,
 * which memory_reembed may have moved): stored as FAILED. A FAILED item keeps the
 * vector the memory holds (after memory_reembed, the old one, which still
 * describes the current text). updated_at does not move. Each stored item
 * moves the memory to the feed's end.
 * Result: memory_embedded() with the number stored. */

typedef struct mnemo_memory_pending_req {
    int64_t after_key; /* 0: from the start */
    int64_t limit;
    int64_t now_us;
} mnemo_memory_pending_req;
/* Live memories with status pending, in key order, through memory() (text
 * and text_version set, no vector): the embedder's work after a restart.
 * A limit below 1: INVALID. */

typedef struct mnemo_memory_reembed_req {
    mnemo_str app;
    int64_t now_us;
    /* ABI 5: > 0 the dimension of the model the memories are embedded with
     * from now on; 0: the app keeps its dimension. */
    int64_t dimensions;
} mnemo_memory_reembed_req;
/* Marks every live memory of the app pending, keeping its vector until the
 * new one is stored. With dimensions > 0, in the same transaction, the app's
 * stored dimension becomes dimensions (durably: a restart and every daemon
 * on the store see it), whatever it was. From then on memory_embed stores
 * READY vectors of that dimension, memory_write, memory_patch and
 * import_records refuse vectors of any other (the old one included), and
 * each memory keeps its old vector, of the old dimension, until its new one
 * is stored: the change feed shows each row with the vector it holds, so the
 * index can serve recall from the old vectors until none is left (see
 * memory_count's stale). Result: memory_count() with total = the number
 * marked. */

typedef struct mnemo_memory_count_req {
    mnemo_str app;  /* ptr NULL: every app */
    mnemo_str user; /* ptr NULL: every user */
    int64_t now_us;
} mnemo_memory_count_req;

typedef struct mnemo_memory_count_result {
    int64_t total; /* live memories */
    int64_t none, pending, ready, failed;
    /* ABI 5: */
    int64_t dimension; /* the app's stored dimension (a count of one app); 0: none fixed, or every app */
    int64_t stale;     /* live memories holding a vector of another dimension than their app's (a
                          re-embedding into another dimension not finished yet; a failed one keeps
                          its old vector and counts here until memories.reembed succeeds) */
} mnemo_memory_count_result;
/* Result: memory_count(). The app's stored dimension is the one memory_write
 * fixed with the app's first vector, or memory_reembed set; memory.dimensions
 * (the requests' dimensions) does not change it. */

/* ---- extraction cursor (docs/memories.md, memory.capture: extract) --------------
 * mnemod hands "the events since the last extraction" of a session to an
 * extractor and then records, per session, the highest seq it handled:
 * mnemo_session.extracted_seq, durable like the session row, so a restart
 * neither extracts an event again nor skips one. It starts at 0 with the
 * session (a create replacing a soft-deleted or tombstoned id included: that
 * session's seqs start again), and only session_extracted moves it.
 * Rewind and rewrite need no rule of their own: seqs are never given twice
 * within a session (a rewind soft-deletes, a rewrite's new events take seqs
 * after last_seq), so the events they add are above the cursor and are
 * extracted in turn, while memories extracted from undone events stay (they
 * are the user's, like written ones). Events evicted by event_limit before
 * an extraction reached them are not extracted. */
typedef struct mnemo_extracted_req {
    mnemo_key key;
    int64_t now_us;
    int64_t from_seq;  /* the cursor the extraction read (compare-and-set) */
    int64_t up_to_seq; /* the highest seq it handled: the new cursor */
} mnemo_extracted_req;
/* A live session whose extracted_seq is from_seq gets extracted_seq =
 * up_to_seq; version, updated_at and expires_at do not move (no client
 * wrote). Absent, expired or soft-deleted: NOT_FOUND. extracted_seq other
 * than from_seq (another extraction moved it): CONFLICT, nothing changes.
 * up_to_seq below from_seq or above last_seq: INVALID. Nothing goes through
 * the sink. */

/* ---- activity (ABI 7, optional): the apps and users a store holds --------
 * What an operator browses before picking a session: every app with data,
 * and an app's users by their latest activity. A user or an app "holds
 * data" while it has a live session (not soft-deleted, not expired) or a
 * live memory; state and lanes alone do not count. */
typedef struct mnemo_activity {
    mnemo_str name;            /* the app (app_list) or the user (user_list) */
    int64_t users;             /* app_list: its users holding data; user_list: 0 */
    int64_t sessions;          /* live sessions */
    int64_t events;            /* the visible events of those sessions (their event_count) */
    int64_t memories;          /* live memories */
    int64_t last_active_at_us; /* the latest updated_at of those sessions and memories */
} mnemo_activity;

typedef struct mnemo_app_list_req {
    int64_t now_us;
} mnemo_app_list_req;
/* Result: activity() per app holding data, in app order (bytes). It counts
 * every live row of the store: an operator's occasional look, not a hot
 * path. */

typedef struct mnemo_user_list_req {
    mnemo_str app;
    int64_t now_us;
    int64_t limit;               /* rows wanted; the backend returns at most limit */
    int64_t cursor_active_at_us; /* 0: first page; else rows strictly after the cursor */
    mnemo_str cursor_user;       /* in the list's order (last_active_at desc, user desc) */
} mnemo_user_list_req;
/* Result: activity() per user of the app holding data, most recently active
 * first (last_active_at desc, ties by user desc, bytes), at most limit. A
 * limit below 1: INVALID. */

typedef struct mnemo_backend mnemo_backend; /* opaque, the plugin's own */

/* ---- host services -------------------------------------------------------
 * What mnemod lends a backend, handed to open(): the word rules of search,
 * so every backend indexes and matches exactly as the host excerpts
 * (core/search.h states them), equality by JSON value (memory recall's
 * metadata filters), and mnemod's log. The table is static in
 * mnemod (valid for the process lifetime); every function may be called from
 * any thread, at any time after open() began. Functions appended within an
 * ABI version are found through host_size. */

enum mnemo_log_level { MNEMO_LOG_DEBUG = 0, MNEMO_LOG_INFO = 1, MNEMO_LOG_WARN = 2, MNEMO_LOG_ERROR = 3 };

/* How a search query reads (core/search.h). */
enum mnemo_query_kind {
    MNEMO_QUERY_RECENT = 0, /* empty q: the most recently updated sessions */
    MNEMO_QUERY_TERMS = 1   /* content terms and exact clauses */
};
/* How many of a query's terms and clauses a match holds. */
enum mnemo_match {
    MNEMO_MATCH_ANY = 0, /* at least one */
    MNEMO_MATCH_ALL = 1  /* every one */
};

typedef struct mnemo_query mnemo_query; /* opaque, the host's: a parsed query */

/* The kind of a JSON value mnemo_host.json_members reports: a string, an
 * integer within int64, true or false; anything else (null, a fraction, an
 * array, an object) is MNEMO_JSON_OTHER. */
enum mnemo_json_kind { MNEMO_JSON_STRING = 0, MNEMO_JSON_INTEGER = 1, MNEMO_JSON_BOOLEAN = 2, MNEMO_JSON_OTHER = 3 };

typedef struct mnemo_host {
    size_t host_size; /* sizeof(mnemo_host) as mnemod was built */

    /* Writes message to mnemod's log at level (enum mnemo_log_level), tagged
     * with the plugin's name. */
    void (*log)(int level, const char* plugin, mnemo_str message);

    /* Word rules. decode: the UTF-8 code point at text[pos], its byte length
     * in *length (an invalid byte reads as U+FFFD of length 1). is_cjk: Han,
     * kana or hangul (scripts written without spaces). has_cjk: text holds
     * one. words: calls word(ctx, begin, end) for every word of text (a
     * maximal run of letters and digits of any script), in order, as byte
     * offsets. fold: calls out(ctx, folded) once with the word folded for
     * comparison (lower case, Latin diacritics removed). terms: calls
     * term(ctx, begin, end, term) for every word of text that has a term
     * (folded, then Snowball-stemmed when of Latin script; words holding a
     * CJK character have none), in order: what an index files and BM25
     * counts (a document's length is its number of terms). */
    uint32_t (*decode)(mnemo_str text, size_t pos, size_t* length);
    int (*is_cjk)(uint32_t code_point);
    int (*has_cjk)(mnemo_str text);
    void (*words)(mnemo_str text, void (*word)(void* ctx, size_t begin, size_t end), void* ctx);
    void (*fold)(mnemo_str word, void (*out)(void* ctx, mnemo_str folded), void* ctx);
    void (*terms)(mnemo_str text, void (*term)(void* ctx, size_t begin, size_t end, mnemo_str term), void* ctx);

    /* Queries. query_parse trims and reads q with a match mode (enum
     * mnemo_match); the query lives until query_free. query_terms /
     * query_term: its distinct content terms in query order (stop words
     * left out when it has other words); query_term_required: 1 when that
     * term stands in q as a word of its own, 0 when only a clause's words
     * give it (match all then asks for the clause, not the term: it may be
     * cut from a longer word); query_clauses / query_clause: its exact
     * clauses, each matched verbatim, ASCII case-insensitively.
     * query_matches: 1 when text (an event's search_text, a memory's text)
     * matches the query in its mode. */
    mnemo_query* (*query_parse)(mnemo_str q, int match);
    void (*query_free)(mnemo_query* query);
    int (*query_kind)(const mnemo_query* query); /* enum mnemo_query_kind */
    int (*query_match)(const mnemo_query* query); /* enum mnemo_match */
    size_t (*query_terms)(const mnemo_query* query);
    mnemo_str (*query_term)(const mnemo_query* query, size_t index);
    int (*query_term_required)(const mnemo_query* query, size_t index);
    size_t (*query_clauses)(const mnemo_query* query);
    mnemo_str (*query_clause)(const mnemo_query* query, size_t index);
    int (*query_matches)(const mnemo_query* query, mnemo_str text);

    /* Appended within ABI 3 (host_size tells whether it is there): equality
     * by JSON value, as memory recall's metadata filters compare (objects
     * regardless of key order, numbers by value: 1 equals 1.0). 1 when the
     * JSON object object_json has a top-level key whose value equals
     * value_json; a missing key, invalid JSON or a text that is no object: 0. */
    int (*json_member_equals)(mnemo_str object_json, mnemo_str key, mnemo_str value_json);

    /* Appended within ABI 3: the members of the JSON object json (a plugin's
     * options as mnemod renders storage.options), in order: member(ctx, key,
     * kind, text, number) with kind an enum mnemo_json_kind, a string's
     * unescaped text in text, an integer or a boolean (1, 0) in number.
     * Returns 1, or 0 without calling member when json is no valid JSON
     * object. */
    int (*json_members)(mnemo_str json,
                        void (*member)(void* ctx, mnemo_str key, int kind, mnemo_str text, int64_t number), void* ctx);
} mnemo_host;

/* ---- asynchronous append (optional) --------------------------------------
 * A backend that funnels writes through threads of its own (the sqlite
 * writer and its group commit) may take appends without a host thread parked
 * on each one: events_append_async queues the append and returns at once.
 *  - It returns MNEMO_OK once the append is queued; later, on one of the
 *    backend's threads, it fills result, calls sink and fills err exactly as
 *    events_append would, then calls done(done_ctx, status) once, with
 *    status MNEMO_OK only when the append is durable (its transaction
 *    committed), else the code it put in err.
 *  - A non-zero return means it failed at once (err filled); done is then
 *    never called.
 *  - req (and every buffer it points to), result, sink and err stay valid,
 *    and untouched by the host, until done is called. done must not block:
 *    the host only hands the completion to its event loop.
 *  - The host never closes the backend while a queued append has not seen
 *    done. Without this operation the host calls events_append on a worker
 *    thread; it is never called on a MNEMO_CAP_NONBLOCKING backend. */
typedef void (*mnemo_done_fn)(void* done_ctx, int status);

/*
 * The operation table. Every operation returns 0 (MNEMO_OK) or fills *err
 * and returns its code. The sink pointer may be NULL where no result is
 * defined.
 */
struct mnemo_check_result; /* check's answer, defined after the table */

typedef struct mnemo_storage_ops {
    size_t ops_size; /* sizeof(mnemo_storage_ops) as the plugin was built */

    /* host: mnemod's services (see above), kept by the backend.
     * options_json: the config's storage.options as a JSON object, with
     * relative paths already resolved by mnemod. */
    int (*open)(const mnemo_host* host, const char* options_json, mnemo_backend** out, mnemo_error* err);
    void (*close)(mnemo_backend* backend);
    int (*ping)(mnemo_backend* backend, mnemo_error* err);
    int (*stats)(mnemo_backend* backend, const mnemo_stats_req* req, const mnemo_sink* sink, mnemo_error* err);

    int (*session_create)(mnemo_backend* backend, const mnemo_session_create_req* req, const mnemo_sink* sink,
                          mnemo_error* err);
    int (*session_get)(mnemo_backend* backend, const mnemo_session_get_req* req, const mnemo_sink* sink,
                       mnemo_error* err);
    int (*session_list)(mnemo_backend* backend, const mnemo_session_list_req* req, const mnemo_sink* sink,
                        mnemo_error* err);
    int (*session_delete)(mnemo_backend* backend, const mnemo_session_delete_req* req, const mnemo_sink* sink,
                          mnemo_error* err);
    int (*user_purge)(mnemo_backend* backend, const mnemo_user_purge_req* req, const mnemo_sink* sink,
                      mnemo_error* err);

    int (*events_append)(mnemo_backend* backend, const mnemo_append_req* req, mnemo_append_result* result,
                         const mnemo_sink* sink, mnemo_error* err);
    int (*events_list)(mnemo_backend* backend, const mnemo_events_list_req* req, const mnemo_sink* sink,
                       mnemo_error* err);
    int (*events_rewrite)(mnemo_backend* backend, const mnemo_rewrite_req* req, const mnemo_sink* sink,
                          mnemo_error* err);
    int (*events_rewind)(mnemo_backend* backend, const mnemo_rewind_req* req, const mnemo_sink* sink, mnemo_error* err);

    int (*state_patch)(mnemo_backend* backend, const mnemo_state_patch_req* req, const mnemo_sink* sink,
                       mnemo_error* err);
    int (*state_get)(mnemo_backend* backend, const mnemo_state_get_req* req, const mnemo_sink* sink, mnemo_error* err);
    int (*state_delete)(mnemo_backend* backend, const mnemo_state_delete_req* req, mnemo_error* err);

    int (*summary_put)(mnemo_backend* backend, const mnemo_summary_put_req* req, const mnemo_sink* sink,
                       mnemo_error* err);
    int (*summary_list)(mnemo_backend* backend, const mnemo_summary_list_req* req, const mnemo_sink* sink,
                        mnemo_error* err);

    int (*track_append)(mnemo_backend* backend, const mnemo_track_append_req* req, const mnemo_sink* sink,
                        mnemo_error* err);
    int (*track_list)(mnemo_backend* backend, const mnemo_track_list_req* req, const mnemo_sink* sink,
                      mnemo_error* err);

    int (*lane_get)(mnemo_backend* backend, const mnemo_lane_get_req* req, const mnemo_sink* sink, mnemo_error* err);
    int (*lane_write)(mnemo_backend* backend, const mnemo_lane_write_req* req, const mnemo_sink* sink,
                      mnemo_error* err);
    int (*lane_list)(mnemo_backend* backend, const mnemo_lane_list_req* req, const mnemo_sink* sink, mnemo_error* err);
    int (*lane_recover)(mnemo_backend* backend, const mnemo_lane_recover_req* req, const mnemo_sink* sink,
                        mnemo_error* err);

    int (*sweep_step)(mnemo_backend* backend, const mnemo_sweep_req* req, const mnemo_sink* sink, mnemo_error* err);
    int (*finalize_list)(mnemo_backend* backend, const mnemo_finalize_list_req* req, const mnemo_sink* sink,
                         mnemo_error* err);
    int (*finalize_done)(mnemo_backend* backend, const mnemo_finalize_done_req* req, const mnemo_sink* sink,
                         mnemo_error* err);

    /* search, export, import */
    int (*search)(mnemo_backend* backend, const struct mnemo_search_req* req, const mnemo_sink* sink, mnemo_error* err);
    int (*export_step)(mnemo_backend* backend, const struct mnemo_export_req* req, const struct mnemo_record_sink* sink,
                       mnemo_error* err);
    int (*import_records)(mnemo_backend* backend, const struct mnemo_import_req* req, mnemo_error* err);

    /* Optional (found through ops_size; NULL: unsupported). */
    int (*finalize_done_batch)(mnemo_backend* backend, const struct mnemo_finalize_done_batch_req* req,
                               const mnemo_sink* sink, mnemo_error* err);

    /* Optional (NULL: unsupported); see "asynchronous append" above. */
    int (*events_append_async)(mnemo_backend* backend, const mnemo_append_req* req, mnemo_append_result* result,
                               const mnemo_sink* sink, mnemo_error* err, mnemo_done_fn done, void* done_ctx);

    /* ---- optional: long-term memories (docs/memories.md) ----
     * All thirteen or none. NULL (or an ops_size that ends before them): the
     * backend keeps no memories, and mnemod answers the memory routes with an
     * error naming the backend. */
    int (*memory_write)(mnemo_backend* backend, const struct mnemo_memory_write_req* req, const mnemo_sink* sink,
                        mnemo_error* err);
    int (*memory_get)(mnemo_backend* backend, const struct mnemo_memory_get_req* req, const mnemo_sink* sink,
                      mnemo_error* err);
    int (*memory_patch)(mnemo_backend* backend, const struct mnemo_memory_patch_req* req, const mnemo_sink* sink,
                        mnemo_error* err);
    int (*memory_delete)(mnemo_backend* backend, const struct mnemo_memory_delete_req* req, const mnemo_sink* sink,
                         mnemo_error* err);
    int (*memory_list)(mnemo_backend* backend, const struct mnemo_memory_list_req* req, const mnemo_sink* sink,
                       mnemo_error* err);
    int (*memory_search)(mnemo_backend* backend, const struct mnemo_memory_search_req* req, const mnemo_sink* sink,
                         mnemo_error* err);
    int (*memory_keys)(mnemo_backend* backend, const struct mnemo_memory_keys_req* req, const mnemo_sink* sink,
                       mnemo_error* err);
    int (*memory_candidates)(mnemo_backend* backend, const struct mnemo_memory_candidates_req* req,
                             const mnemo_sink* sink, mnemo_error* err);
    int (*memory_changes)(mnemo_backend* backend, const struct mnemo_memory_changes_req* req, const mnemo_sink* sink,
                          mnemo_error* err);
    int (*memory_embed)(mnemo_backend* backend, const struct mnemo_memory_embed_req* req, const mnemo_sink* sink,
                        mnemo_error* err);
    int (*memory_pending)(mnemo_backend* backend, const struct mnemo_memory_pending_req* req, const mnemo_sink* sink,
                          mnemo_error* err);
    int (*memory_reembed)(mnemo_backend* backend, const struct mnemo_memory_reembed_req* req, const mnemo_sink* sink,
                          mnemo_error* err);
    int (*memory_count)(mnemo_backend* backend, const struct mnemo_memory_count_req* req, const mnemo_sink* sink,
                        mnemo_error* err);

    /* ABI 5, optional (NULL: the backend keeps no extraction cursor, and
     * mnemod refuses memory.capture: extract at start); see "extraction
     * cursor" above. */
    int (*session_extracted)(mnemo_backend* backend, const struct mnemo_extracted_req* req, const mnemo_sink* sink,
                             mnemo_error* err);

    /* Appended within ABI 5, optional (NULL: unsupported); see "queued
     * writes" below. */
    int (*write_async)(mnemo_backend* backend, size_t op, const void* req, const mnemo_sink* sink, mnemo_error* err,
                       mnemo_done_fn done, void* done_ctx);

    /* ABI 7, optional (NULL: unsupported, and mnemod answers GET /v1/apps
     * and GET /v1/apps/{app}/users with an error naming the backend); see
     * "activity" above. */
    int (*app_list)(mnemo_backend* backend, const struct mnemo_app_list_req* req, const mnemo_sink* sink,
                    mnemo_error* err);
    int (*user_list)(mnemo_backend* backend, const struct mnemo_user_list_req* req, const mnemo_sink* sink,
                     mnemo_error* err);

    /* ABI 8, optional (NULL: unsupported, and mnemod answers GET
     * .../sessions/{session}/tracks with an error naming the backend). */
    int (*session_tracks)(mnemo_backend* backend, const struct mnemo_session_tracks_req* req,
                          const mnemo_sink* sink, mnemo_error* err);

    /* ABI 8, optional (NULL: the backend is checked by its options alone);
     * see "checking without opening" below. */
    int (*check)(const mnemo_host* host, const char* options_json, struct mnemo_check_result* result,
                 mnemo_error* err);

    /* Later additions are appended here (found through ops_size). */
} mnemo_storage_ops;

/* ---- checking without opening (optional) -----------------------------------
 * `mnemod --check-config` asks a backend whether open() would reach its
 * store, without opening it: check connects and authenticates as open()
 * would, and may read what open() would refuse (a schema newer than the
 * plugin's), but creates, migrates and writes nothing, and keeps no
 * connection. It takes the options open() would (with host, the same
 * services) and is called on the host's thread, once, without an open
 * backend. On failure it fills err (what went wrong, with the driver's
 * words, and what to do) and result->option; on success result->summary. */
typedef struct mnemo_check_result {
    /* The key of storage.options the failure is about ("password", "host",
     * "conninfo"), so mnemod places the error where that key is written;
     * "" when no one key is. NUL-terminated. */
    char option[64];
    /* What was found, for the user ("postgres database db.internal:5432/
     * mnemo: schema version 1, current"); "" for nothing to say.
     * NUL-terminated. */
    char summary[256];
} mnemo_check_result;

/* ---- queued writes (optional) ---------------------------------------------
 * write_async is events_append_async for the other write operations: the
 * host names one by its offset in the table (op, e.g.
 * offsetof(mnemo_storage_ops, state_patch)) and hands its request, sink and
 * err exactly as it would to that operation; the backend queues it and
 * returns at once, under the same rules as events_append_async (the sink is
 * filled on a backend thread, done called once with MNEMO_OK only when the
 * write is durable, a non-zero return means done is never called, every
 * pointer stays valid until done). An operation without a sink (state_delete,
 * import_records) ignores it. A backend that has write_async queues every
 * operation of the table that only writes: session_create, session_delete,
 * user_purge, events_rewrite, events_rewind, state_patch, state_delete,
 * summary_put, track_append, lane_write, lane_recover, sweep_step,
 * finalize_done, finalize_done_batch, import_records, and, when it keeps
 * memories, memory_write, memory_patch, memory_delete, memory_embed,
 * memory_reembed and session_extracted; any other op is refused with
 * MNEMO_E_INVALID at once. Without write_async the host calls these
 * operations on a worker thread. Never called on a MNEMO_CAP_NONBLOCKING
 * backend. */

/* What the entry symbol returns. Static storage in the plugin. */
typedef struct mnemo_plugin {
    uint32_t abi_version;  /* MNEMO_PLUGIN_ABI_VERSION the plugin was built with */
    const char* name;      /* "memory", "sqlite", "mysql", ... */
    const char* version;   /* the plugin's own version string */
    uint32_t capabilities; /* MNEMO_CAP_* */
    const mnemo_storage_ops* ops;
} mnemo_plugin;

typedef const mnemo_plugin* (*mnemo_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* MNEMO_PLUGIN_H */
