//! The integration tests: one binary, modules by subject.

mod support;

mod client;
mod core;
mod example;
mod security;
