//! Fuzz target `formula`: random, mutated and generated formula texts through `Formula::parse`, with print/parse round trips checked exactly and by evaluation.

use super::mutate::mutate_bytes;
use super::{Target, Violation};
use crate::oracle::{Atom, Form, Formula, Rel, Value};
use rand::rngs::StdRng;
use rand::RngExt;

pub(super) const TARGET: Target = Target {
    name: "formula",
    about: "formula parser on random text, mutated printed formulas and generated formulas (round trip)",
    generate,
    check,
};

const NAMES: &[&str] = &["x", "y", "out", "a1", "b_2", "n"];
const RELS: [Rel; 6] = [Rel::Le, Rel::Lt, Rel::Ge, Rel::Gt, Rel::Eq, Rel::Ne];
const WORDS: &[&str] = &[
    "x",
    "y",
    "out",
    "and",
    "or",
    "not",
    "true",
    "false",
    "(",
    ")",
    "<=",
    "<",
    ">=",
    ">",
    "=",
    "!=",
    "==",
    "+",
    "-",
    "*",
    "/",
    "0",
    "1",
    "-7",
    "3.25",
    "1e-3",
    "1e400",
    "7/2",
    "1/0",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "123456789012345678901234567890",
    " ",
    "  ",
    "z",
];

/// A random exact value: small, extreme, or a big rational.
pub(super) fn value(rng: &mut StdRng) -> Value {
    match rng.random_range(0..8) {
        0 => {
            Value::Int([i64::MAX, i64::MIN, i64::MAX - 1, i64::MIN + 1, 0][rng.random_range(0..5)])
        }
        1 => Value::fraction(
            rng.random_range(i64::MIN..=i64::MAX),
            rng.random_range(1..=i64::MAX),
        )
        .unwrap_or(Value::ZERO),
        2 => Value::fraction(rng.random_range(-100..=100), rng.random_range(1..=12))
            .unwrap_or(Value::ZERO),
        3 => {
            let v = Value::Int(i64::MAX).to_rational()
                * Value::Int(rng.random_range(2..=1000)).to_rational();
            Value::from_rational(v)
        }
        4 => Value::Int(rng.random_range(i64::MIN..=i64::MAX)),
        _ => Value::Int(rng.random_range(-20..=20)),
    }
}

fn atom(rng: &mut StdRng, nvars: usize) -> Atom {
    if rng.random_range(0..5) == 0 {
        let m = [1, 2, 3, 10, i64::MAX][rng.random_range(0..5)];
        let r = rng.random_range(-12..=12);
        return Atom::remainder(
            rng.random_range(0..nvars),
            m,
            RELS[rng.random_range(0..6)],
            Value::Int(r),
        );
    }
    let terms: Vec<(usize, i64)> = (0..rng.random_range(1..=3))
        .map(|_| {
            let c = match rng.random_range(0..6) {
                0 => [i64::MAX, i64::MIN, -1][rng.random_range(0..3)],
                1 => rng.random_range(i64::MIN..=i64::MAX),
                _ => rng.random_range(-3..=3),
            };
            (rng.random_range(0..nvars), c)
        })
        .collect();
    Atom::new(&terms, RELS[rng.random_range(0..6)], value(rng))
}

/// A random CNF or DNF over `nvars` variables.
pub(super) fn formula(rng: &mut StdRng, vars: &[String]) -> Formula {
    let groups: Vec<Vec<Atom>> = (0..rng.random_range(0..=3))
        .map(|_| {
            (0..rng.random_range(1..=3))
                .map(|_| atom(rng, vars.len()))
                .collect()
        })
        .collect();
    if rng.random_range(0..2) == 0 {
        Formula::cnf(vars.to_vec(), groups)
    } else {
        Formula::dnf(vars.to_vec(), groups)
    }
}

fn generate(rng: &mut StdRng, _corpus: &[String]) -> Vec<u8> {
    let nvars = rng.random_range(1..=NAMES.len());
    let vars: Vec<String> = NAMES[..nvars].iter().map(|s| s.to_string()).collect();
    let text = match rng.random_range(0..3) {
        0 => structure(&formula(rng, &vars)),
        1 => {
            let mut b = formula(rng, &vars).to_string().into_bytes();
            mutate_bytes(rng, &mut b, 4);
            String::from_utf8_lossy(&b).into_owned()
        }
        _ => (0..rng.random_range(0..30))
            .map(|_| WORDS[rng.random_range(0..WORDS.len())])
            .collect::<Vec<_>>()
            .join(" "),
    };
    format!("{}\n{text}", vars.join(" ")).into_bytes()
}

/// Points where a formula's atoms change value: each right-hand side (and +-1) on every variable.
fn probe_points(f: &Formula) -> Vec<Vec<Value>> {
    let n = f.vars().len();
    let mut pts = vec![vec![Value::ZERO; n]];
    for a in f.atoms().take(6) {
        let c = a.rhs().to_rational();
        for d in [-1i64, 0, 1] {
            let v = Value::from_rational(c.clone() + Value::Int(d).to_rational());
            pts.push(vec![v; n]);
        }
    }
    pts
}

/// A formula's structure as text (`#cnf` or `#dnf`, then one group per line, atoms as
/// `var:coef ... REL rhs`, or `var:1 %m REL rhs` for a remainder, separated by `|`), so
/// the checker can rebuild it exactly.
fn structure(f: &Formula) -> String {
    let mut s = format!("#{}", if f.form() == Form::Cnf { "cnf" } else { "dnf" });
    for g in f.groups() {
        let atoms: Vec<String> = g
            .iter()
            .map(|a| {
                let mut terms: Vec<String> =
                    a.terms().iter().map(|(v, c)| format!("{v}:{c}")).collect();
                terms.extend(a.modulus().map(|m| format!("%{m}")));
                format!("{} {} {}", terms.join(" "), a.rel().symbol(), a.rhs())
            })
            .collect();
        s.push('\n');
        s.push_str(&atoms.join(" | "));
    }
    s
}

/// Rebuilds a formula from [`structure`] text (`None` if it is not such text).
fn rebuild(body: &str, vars: &[String]) -> Option<Formula> {
    let mut lines = body.lines();
    let form = match lines.next()? {
        "#cnf" => Form::Cnf,
        "#dnf" => Form::Dnf,
        _ => return None,
    };
    let mut groups = Vec::new();
    for line in lines {
        let mut g = Vec::new();
        for a in line.split(" | ") {
            let words: Vec<&str> = a.split_whitespace().collect();
            let (rhs, rest) = words.split_last()?;
            let (rel, terms) = rest.split_last()?;
            let rel = RELS.into_iter().find(|r| r.symbol() == *rel)?;
            let rhs = Value::parse(rhs)?;
            let (modulus, terms) = match terms.split_last() {
                Some((m, rest)) if m.starts_with('%') => (Some(m[1..].parse::<i64>().ok()?), rest),
                _ => (None, terms),
            };
            let terms: Option<Vec<(usize, i64)>> = terms
                .iter()
                .map(|t| {
                    let (v, c) = t.split_once(':')?;
                    let v: usize = v.parse().ok()?;
                    (v < vars.len()).then_some(())?;
                    Some((v, c.parse().ok()?))
                })
                .collect();
            g.push(match (modulus, &terms?[..]) {
                (None, terms) => Atom::new(terms, rel, rhs),
                (Some(m), &[(v, 1)]) if m >= 1 && rhs.is_integer() => {
                    Atom::remainder(v, m, rel, rhs)
                }
                _ => return None,
            });
        }
        groups.push(g);
    }
    Some(match form {
        Form::Cnf => Formula::cnf(vars.to_vec(), groups),
        Form::Dnf => Formula::dnf(vars.to_vec(), groups),
    })
}

fn check(input: &[u8]) -> Result<(), Violation> {
    let text = String::from_utf8_lossy(input);
    let (names, body) = text.split_once('\n').unwrap_or((&text, ""));
    let vars: Vec<String> = names.split_whitespace().map(str::to_string).collect();
    let f = match rebuild(body, &vars) {
        Some(f) => f,
        None => match Formula::parse(body, &vars) {
            Ok(f) => f,
            Err(_) => return Ok(()),
        },
    };
    let printed = f.to_string();
    let g = Formula::parse(&printed, &vars).map_err(|e| {
        Violation::Invariant(format!("printed formula '{printed}' does not parse: {e}"))
    })?;
    if g != f {
        return Err(Violation::Invariant(format!(
            "parse(print(f)) != f for '{printed}' (reprinted '{g}')"
        )));
    }
    for p in probe_points(&f) {
        if f.eval(&p) != g.eval(&p) {
            return Err(Violation::Invariant(format!(
                "round trip changes the value of '{printed}'"
            )));
        }
    }
    Ok(())
}
