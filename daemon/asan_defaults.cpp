// asan_defaults.cpp -- the AddressSanitizer defaults of mnemod and the test
// binaries, linked in only by sanitizer builds whose runtime has the bug below
// (CMakeLists.txt: GCC before 14, Clang before 17). Options set in
// ASAN_OPTIONS still win over these.
//
// intercept_tls_get_addr=0: the runtime's __tls_get_addr interceptor records
// each thread's dynamic TLS blocks (those of dlopen'd libraries: the storage
// plugins, absl) for LeakSanitizer to scan at exit. Before LLVM 17 it takes a
// block that starts 16 bytes into a page for one with a glibc 2.19 header and
// reads the two words before it as the block's start and size. glibc 2.25 and
// later have no such header, so whenever malloc happens to place a block
// there, the recorded range is garbage and LeakSanitizer's tracer dies reading
// it at exit ("Tracer caught signal 11"), which fails the run without a leak.
// Where a block lands depends on every allocation before it, so any change
// anywhere could turn it on. Without the interceptor no leak goes unseen: the
// blocks are heap chunks reachable from each thread's DTV, which the thread's
// TCB (inside its scanned static TLS) points to.
extern "C" const char* __asan_default_options() {
    return "intercept_tls_get_addr=0";
}
