//! `runner completions SHELL`: a completion script for the shell, from the
//! command line's own definition.

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;

/// Prints the script; a closed stdout (`| head`) ends it quietly.
pub fn print(shell: Shell) {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "runner", &mut script);
    crate::out!("{}", String::from_utf8_lossy(&script));
}
