//! Colours: `--color auto|always|never` as cargo and ripgrep take it; `auto`
//! colours a terminal unless NO_COLOR is set.

use std::io::IsTerminal;
use std::sync::OnceLock;

use console::Style;

/// When to colour what the runner prints.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    #[default]
    Auto,
    Always,
    Never,
}

/// The user's choice, made once per process by the command line. A process
/// setting like console's own colour switch: every printer of the process
/// must obey the one flag, and threading it through every view would add a
/// parameter to each for nothing else.
static CHOICE: OnceLock<ColorChoice> = OnceLock::new();

/// Records `--color`; the first call wins.
pub fn choose(choice: ColorChoice) {
    let _ = CHOICE.set(choice);
}

/// Whether to colour a stream that is (or is not) a terminal.
pub fn use_color(stream_is_tty: bool) -> bool {
    match CHOICE.get().copied().unwrap_or_default() {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            stream_is_tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// The styles of what is printed: plain unless colours are on.
#[derive(Clone)]
pub struct Paint {
    pub ok: Style,
    pub bad: Style,
    pub warn: Style,
    pub dim: Style,
    pub bold: Style,
}

impl Paint {
    /// For what goes to stdout.
    pub fn stdout() -> Paint {
        Paint::new(use_color(std::io::stdout().is_terminal()))
    }

    /// For what goes to stderr.
    pub fn stderr() -> Paint {
        Paint::new(use_color(std::io::stderr().is_terminal()))
    }

    pub fn new(color: bool) -> Paint {
        let style = |s: Style| s.force_styling(color);
        Paint {
            ok: style(Style::new().green()),
            bad: style(Style::new().red()),
            warn: style(Style::new().yellow()),
            dim: style(Style::new().dim()),
            bold: style(Style::new().bold()),
        }
    }
}

/// An error on stderr: `error: …`, as cargo and clap print it.
pub fn error(text: &str) {
    let paint = Paint::stderr();
    crate::errln!("{} {text}", paint.bad.apply_to("error:"));
}

/// A warning on stderr: `warning: …`; the run goes on.
pub fn warning(text: &str) {
    let paint = Paint::stderr();
    crate::errln!("{} {text}", paint.warn.apply_to("warning:"));
}
