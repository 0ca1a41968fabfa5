//! The integration tests: one binary, modules by subject.

mod support;

mod any_model;
mod client;
mod completion;
mod core;
mod crash;
mod example;
mod personalities;
mod real_model;
mod security;
mod views;
mod workspace;
