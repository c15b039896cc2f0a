//! Fuzz target `parse`: arbitrary bytes, mutated corpus programs and generated C through the preprocessor, parser, printer, compiler and (briefly) the VM.

use super::cgen::{program, GenConfig};
use super::mutate::{mutate_bytes, mutate_tokens, random_bytes};
use super::{Target, Violation};
use crate::lang::{compile, diag, parse, Limits};
use rand::rngs::StdRng;
use rand::RngExt;

pub(super) const TARGET: Target = Target {
    name: "parse",
    about: "arbitrary bytes, token-mutated corpus and generated programs, pathological nesting and macros",
    generate,
    check,
};

/// Built-in seeds, used with (or without) a corpus from the caller.
const SEEDS: &[&str] = &[
    "#include <stdio.h>\n#define N 10\n#define SQ(x) ((x)*(x))\nint a[N];\nint main(void) {\n  int n, i; long long s = 0;\n  if (scanf(\"%d\", &n) != 1) return 1;\n  for (i = 0; i < n && i < N; i++) { a[i] = SQ(i); s += a[i]; }\n  printf(\"%lld\\n\", s);\n  return 0;\n}\n",
    "int f(int a, int b, int c) {\n  if (a > b) { int t = a; a = b; b = t; }\n  switch (c) { case 0: return a; case 1: return b; default: break; }\n  while (a < b) a += 2;\n  return a == b ? c : -c;\n}\n",
    "#include <stdio.h>\n#include <math.h>\ndouble g(double x) { return x < 0 ? -x : sqrt(x); }\nint main() { double d; char s[20]; int k = 0;\n  scanf(\"%lf %19s\", &d, s);\n  do { k++; } while (s[k] && k < 19);\n  printf(\"%.2f %d %c\\n\", g(d), k, s[0]);\n  return 0; }\n",
];

fn generate(rng: &mut StdRng, corpus: &[String]) -> Vec<u8> {
    match rng.random_range(0..10) {
        0 | 1 => {
            let len = rng.random_range(0..=256);
            random_bytes(rng, len)
        }
        2 => {
            // Pathological nesting and macro chains.
            let n = rng.random_range(1..=2000);
            let unit = ["(", "{", "[", "-", "!", "*", "if(1)", "f(", "int *", "a?b:"]
                [rng.random_range(0..10)];
            let mut s = format!("int main(){{ return {};", unit.repeat(n));
            if rng.random_range(0..2) == 0 {
                // Doubling macro chains: usually short, rarely long enough to hit the
                // preprocessor's expansion-work bound (which costs milliseconds).
                let chain = if rng.random_range(0..100) == 0 {
                    200
                } else {
                    n.min(12)
                };
                let defs: String = (1..=chain)
                    .map(|i| format!("#define A{i} A{} A{}\n", i - 1, i - 1))
                    .collect();
                s = format!("#define A0 x\n{defs}{s} A{chain};");
            }
            s.into_bytes()
        }
        3..=5 => {
            let p = program(rng, &GenConfig::default());
            let edits = rng.random_range(0..=6);
            if edits == 0 {
                p.source.into_bytes()
            } else {
                mutate_tokens(rng, &p.source, edits).into_bytes()
            }
        }
        _ => {
            let k = rng.random_range(0..SEEDS.len() + corpus.len());
            let seed = SEEDS
                .get(k)
                .copied()
                .unwrap_or_else(|| &corpus[k - SEEDS.len()]);
            if rng.random_range(0..4) == 0 {
                let mut b = seed.as_bytes().to_vec();
                mutate_bytes(rng, &mut b, 8);
                b
            } else {
                mutate_tokens(rng, seed, 8).into_bytes()
            }
        }
    }
}

fn check(input: &[u8]) -> Result<(), Violation> {
    let src = String::from_utf8_lossy(input);
    let (tu, diags) = parse(&src);
    if !diag::has_errors(&diags) {
        // A tree parsed without errors prints back as C that parses to the same print.
        let printed = tu.to_string();
        let (tu2, diags2) = parse(&printed);
        if diag::has_errors(&diags2) {
            return Err(Violation::Invariant(format!(
                "printed program does not parse: {}",
                diags2
                    .iter()
                    .find(|d| d.is_error())
                    .map(ToString::to_string)
                    .unwrap_or_default()
            )));
        }
        if tu2.to_string() != printed {
            return Err(Violation::Invariant("printing is not a fixpoint".into()));
        }
    }
    if let Ok(p) = compile(&src) {
        let limits = Limits {
            fuel: 20_000,
            memory_bytes: 4 << 20,
            global_bytes: 4 << 20,
            call_depth: 1_000,
            output_bytes: 4 << 10,
            ..Limits::default()
        };
        let run = p.run(b"3 1 4 1 5 9 2 6\n", &limits);
        if run.steps > limits.fuel || run.stdout.len() > limits.output_bytes {
            return Err(Violation::Budget(format!(
                "{} steps, {} output bytes",
                run.steps,
                run.stdout.len()
            )));
        }
    }
    Ok(())
}
