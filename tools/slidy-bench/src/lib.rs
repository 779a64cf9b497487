//! Empty: this package exists for its benchmark (`benches/slidy3x3.rs`).
