//! `runner`: a crash-resilient, local-first coding agent for models served by
//! Ollama. See DESIGN.md in the shared folder and README.md.

// Nothing that input, disk or network can make fail may panic; tests may.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

#[macro_use]
pub mod text;

pub mod agent;
pub mod app;
pub mod chat;
pub mod cli;
pub mod config;
pub mod digest;
pub mod error;
pub mod host;
pub mod lang;
pub mod logging;
pub mod memory;
pub mod model;
pub mod paint;
pub mod settings;
pub mod state;
pub mod stop;
pub mod store;
pub mod tools;
pub mod ui;
pub mod views;
pub mod workspace;
