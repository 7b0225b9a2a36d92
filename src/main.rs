//! The `sako` binary: the command line (`cli`), which with no subcommand runs the
//! protocol loop.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
