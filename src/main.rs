use std::process::ExitCode;

use runner::config::{self, ConfigError};
use runner::error::Exit;
use runner::{app, paint};

fn main() -> ExitCode {
    quiet_panics();
    let args: Vec<_> = std::env::args_os().collect();
    if let Some(help) = config::command_help(&args) {
        runner::out!("{help}");
        return ExitCode::SUCCESS;
    }
    let cli = match config::parse(args) {
        Ok(cli) => cli,
        Err(ConfigError::Cli(e)) => {
            // Help and version go to stdout: a closed pipe there is no error.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(Exit::Usage as u8));
        }
        Err(e) => {
            paint::error(&e.to_string());
            return ExitCode::from(Exit::Usage as u8);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            paint::error(&format!(
                "cannot start the async runtime: {e}; check the limits on threads (ulimit -u)"
            ));
            return ExitCode::from(Exit::Usage as u8);
        }
    };
    let exit = runtime.block_on(app::run(cli));
    ExitCode::from(exit as u8)
}

/// A panic prints one line and where the log is, not a backtrace (unless
/// RUST_BACKTRACE asks for one): the state is on disk and resumable.
fn quiet_panics() {
    if std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0") {
        return;
    }
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        paint::error(&format!(
            "the runner failed unexpectedly ({what}{place}); the run is saved: see \
             .agent_context/agent.log, then `runner resume` (RUST_BACKTRACE=1 shows where)"
        ));
    }));
}
