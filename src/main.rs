use std::process::ExitCode;

use clap::Parser;
use runner::app::{self, Exit};
use runner::cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse();
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
