//! The runtime log, `.agent_context/agent.log`, written by tracing-appender.
//! It is for people; recovery never reads it (the event log is the truth).

use std::path::Path;

use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::EnvFilter;

/// Starts logging to `agent.log` in `dir`. Keep the guard until exit: it
/// flushes what the background writer still holds when dropped.
pub fn init(dir: &Path, verbose: bool) -> Option<WorkerGuard> {
    let appender = tracing_appender::rolling::never(dir, "agent.log");
    let (writer, guard) = tracing_appender::non_blocking(appender);
    let default = if verbose {
        "runner=debug"
    } else {
        "runner=info"
    };
    let filter = EnvFilter::try_from_env("RUNNER_LOG").unwrap_or_else(|_| EnvFilter::new(default));
    tracing_subscriber::fmt()
        .with_writer(writer)
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init()
        .ok()?;
    Some(guard)
}
