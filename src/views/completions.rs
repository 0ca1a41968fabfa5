//! `runner completions SHELL`: a completion script for the shell, from the
//! command line's own definition.

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;

pub fn print(shell: Shell) {
    clap_complete::generate(shell, &mut Cli::command(), "runner", &mut std::io::stdout());
}
