use std::process::ExitCode;

use runner::app::{self, Exit};
use runner::config::{self, ConfigError};

fn main() -> ExitCode {
    let cli = match config::parse(std::env::args_os().collect()) {
        Ok(cli) => cli,
        Err(ConfigError::Cli(e)) => e.exit(),
        Err(e) => {
            eprintln!("runner: {e}");
            return ExitCode::from(Exit::Usage as u8);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("runner: cannot start the async runtime: {e}");
            return ExitCode::from(Exit::Usage as u8);
        }
    };
    let exit = runtime.block_on(app::run(cli));
    ExitCode::from(exit as u8)
}
