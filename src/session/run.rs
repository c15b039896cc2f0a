//! Run: the program on one typed input, as the page's Run button shows it (its output, how it ended, the steps, any undefined behaviour of C).

use super::limits::{MAX_PROGRAM_BYTES, MAX_TEXT_BYTES};
use super::replay::playground_limits;
use crate::lang::{compile, Outcome};
use serde::{Deserialize, Serialize};

/// One run as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunView {
    /// The input the program read (as typed).
    pub input: String,
    /// What it printed (up to the output cap; kept when the run ended abnormally).
    pub output: String,
    /// How it ended, in words: "exit status 0", "timeout (stopped at the step limit of
    /// 2 000 000 steps)", "runtime error at line 7: division by zero"...
    pub ended: String,
    /// Whether it ended normally with status 0.
    pub success: bool,
    /// Steps the run took.
    pub steps: u64,
    /// The first undefined behaviour of C it went through (the run went on), in words.
    pub undefined: Option<String>,
    /// Why there was no run (the program does not compile, or the input is too long).
    pub error: Option<String>,
}

impl RunView {
    fn refused(input: &str, why: String) -> RunView {
        RunView {
            input: input.to_string(),
            output: String::new(),
            ended: "not run".to_string(),
            success: false,
            steps: 0,
            undefined: None,
            error: Some(why),
        }
    }
}

/// Runs `program` on `input` (stdin for `main`, the arguments of a function-shaped
/// program) under the playground's limits, the ones every question's run has.
pub fn run_once(program: &str, input: &str) -> RunView {
    if program.len() > MAX_PROGRAM_BYTES {
        return RunView::refused(
            input,
            format!("the program is longer than {MAX_PROGRAM_BYTES} bytes"),
        );
    }
    if input.len() > MAX_TEXT_BYTES {
        return RunView::refused(
            input,
            format!("the input is longer than {MAX_TEXT_BYTES} bytes"),
        );
    }
    let compiled = match compile(program) {
        Ok(p) => p,
        Err(e) => return RunView::refused(input, format!("The program does not compile:\n{e}")),
    };
    let limits = playground_limits();
    let stdin = if input.ends_with('\n') {
        input.to_string()
    } else {
        format!("{input}\n")
    };
    let run = compiled.run(stdin.as_bytes(), &limits);
    let ended = ended_text(&run.outcome, limits.fuel);
    RunView {
        input: input.to_string(),
        output: String::from_utf8_lossy(&run.stdout).into_owned(),
        ended,
        success: matches!(run.outcome, Outcome::Exit(0)),
        steps: run.steps,
        undefined: run.undefined.map(|u| u.to_string()),
        error: None,
    }
}

/// How a run ended, as the page names it: each limit by its name, a runtime error with
/// its line ("runtime error at line 7: division by zero").
pub fn ended_text(outcome: &Outcome, fuel: u64) -> String {
    match outcome {
        Outcome::Exit(code) => format!("exit status {code}"),
        Outcome::Timeout => format!(
            "timeout (stopped at the step limit of {} steps)",
            crate::excerpt::grouped(fuel as usize)
        ),
        Outcome::OutputLimit => "stopped: the output limit was reached".to_string(),
        Outcome::MemoryLimit => "stopped: the memory limit was reached".to_string(),
        Outcome::CallDepth => "stopped: the call depth limit was reached".to_string(),
        Outcome::RuntimeError { .. } => outcome.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_stop_has_its_own_name() {
        let flood =
            "#include <stdio.h>\nint main(void) { while (1) printf(\"xxxxxxxxxxxxxxxx\\n\"); }\n";
        assert_eq!(
            run_once(flood, "").ended,
            "stopped: the output limit was reached"
        );
        let deep = "int f(int n) { return f(n + 1) + 1; }\nint main(void) { return f(0); }\n";
        assert_eq!(
            run_once(deep, "").ended,
            "stopped: the call depth limit was reached"
        );
        let zero =
            "#include <stdio.h>\nint main(void) { int a; scanf(\"%d\", &a);\n  return 10 / a; }\n";
        assert!(
            run_once(zero, "0")
                .ended
                .starts_with("runtime error at line 3: division by zero"),
            "{}",
            run_once(zero, "0").ended
        );
    }

    #[test]
    fn a_run_shows_output_and_exit_status() {
        let r = run_once("#include <stdio.h>\nint main(void) { int a, b; scanf(\"%d %d\", &a, &b); printf(\"%d\\n\", a + b); return a > b; }\n", "2 3");
        assert_eq!(r.output, "5\n");
        assert_eq!(r.ended, "exit status 0");
        assert!(r.success && r.error.is_none() && r.undefined.is_none());
        let r = run_once("#include <stdio.h>\nint main(void) { int a, b; scanf(\"%d %d\", &a, &b); printf(\"%d\\n\", a + b); return a > b; }\n", "3 2");
        assert_eq!((r.ended.as_str(), r.success), ("exit status 1", false));
    }

    #[test]
    fn a_runaway_run_hits_the_step_limit_and_says_so() {
        let r = run_once("int main(void) { for (;;) {} }\n", "");
        assert!(
            r.ended
                .starts_with("timeout (stopped at the step limit of 2 000 000 steps"),
            "{}",
            r.ended
        );
        assert!(!r.success);
    }

    #[test]
    fn undefined_behaviour_and_runtime_errors_are_named() {
        let r = run_once("#include <stdio.h>\nint main(void) { int n; scanf(\"%d\", &n); printf(\"%d\\n\", n * 2000000000); return 0; }\n", "5");
        assert!(
            r.undefined
                .as_deref()
                .is_some_and(|u| u.contains("signed integer overflow at line 2")),
            "{:?}",
            r.undefined
        );
        let r = run_once("#include <stdio.h>\nint main(void) {\n  int n; scanf(\"%d\", &n);\n  printf(\"%d\\n\", 10 / n);\n  return 0;\n}\n", "0");
        assert!(r.ended.contains("line 4"), "{}", r.ended);
        assert!(!r.success);
    }

    #[test]
    fn a_program_that_does_not_compile_is_not_run_and_the_error_names_its_line() {
        let r = run_once("int main(void) {\n  return x;\n}\n", "1");
        let e = r.error.expect("an error");
        assert!(e.contains("line 2") || e.contains("2:"), "{e}");
        assert_eq!(r.ended, "not run");
    }

    #[test]
    fn a_function_shaped_program_takes_the_input_as_arguments() {
        let r = run_once("int add(int a, int b) { return a + b; }\n", "4 5");
        assert_eq!(r.output, "9\n");
    }
}
