//! Every integration test of this crate, in one binary (one link instead of one per file;
//! docs/testing.md). Each module is one file of tests/.

/// mimalloc instead of glibc's malloc: the playouts clone and drop states millions of times,
/// and glibc's malloc and free were about a quarter of their time (perf, Tulpenfieber).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod greedy;
mod playouts;
mod rule_codes;
mod rulebook;
mod setup_pin;
mod words;
