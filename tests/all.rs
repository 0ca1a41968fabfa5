//! The integration tests: one binary, modules by subject.

mod support;

mod any_model;
mod cache;
mod cli;
mod client;
mod completion;
mod core;
mod crash;
mod example;
mod languages;
mod personalities;
mod project;
mod real_model;
mod security;
mod views;
mod workspace;
