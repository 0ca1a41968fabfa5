//! The integration tests: one binary, modules by subject.

mod support;

mod client;
mod core;
mod crash;
mod example;
mod personalities;
mod security;
mod views;
