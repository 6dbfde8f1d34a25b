// Package mnemo is the Go client of mnemod, the session and memory daemon for
// AI agents: every route of its HTTP/JSON API (apps and users, sessions,
// events, state, summaries, tracks, search, lanes and their reset policies,
// memories, recall and operations) as typed methods that take a
// context.Context.
//
// A Client keeps its connections alive over TCP or a Unix socket, sends a
// bearer token when given one, and retries what is safe to retry: a 429 or
// 503 after its Retry-After, a connection that never reached the daemon, and
// a lost answer to a request that may be repeated. Appended events get a
// client-side id before the first attempt, so a retried append is stored
// once.
//
// Errors are values: an answer that is not 2xx is an *Error whose Code can be
// tested with errors.Is (errors.Is(err, mnemo.NotFound)), and a daemon that
// cannot be reached is a *ConnectionError. Listings that page come as
// iter.Seq2 iterators that fetch each page as it is consumed.
//
// Framework adapters live in their own modules so that this one needs only
// the standard library: clients/go/adk for Google ADK-Go and clients/go/trpc
// for tRPC-Agent-Go.
package mnemo
