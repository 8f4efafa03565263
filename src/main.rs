fn main() -> std::process::ExitCode {
    epipen::cli::main()
}
