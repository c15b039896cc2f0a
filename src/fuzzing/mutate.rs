//! Input mutations shared by the targets: C token deletions, duplications, swaps and insertions, and byte-level edits.

use crate::lang::lexer::{lex, TokKind};
use rand::rngs::StdRng;
use rand::RngExt;

/// Tokens inserted by [`mutate_tokens`]: the ones that stress the grammar most.
pub const INSERTS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "*",
    "&",
    "=",
    "?",
    ":",
    "#",
    "#define",
    "\n#",
    "if",
    "else",
    "while",
    "for",
    "do",
    "return",
    "break",
    "continue",
    "int",
    "long",
    "double",
    "char",
    "unsigned",
    "void",
    "struct",
    "switch",
    "case",
    "default",
    "goto",
    "sizeof",
    "typedef",
    "0",
    "-1",
    "2147483647",
    "9223372036854775807",
    "1e308",
    "'a'",
    "\"%d\"",
    "x",
    "main",
    "printf",
    "scanf",
    "...",
    "++",
    "--",
    "<<=",
    "->",
    ".",
];

/// Splits C text into `(gap before, token)` pieces (the gap keeps spaces, newlines and
/// comments), plus the trailing gap; joining them gives the text back.
fn pieces(src: &str) -> (Vec<(String, String)>, String) {
    let (toks, _) = lex(src);
    let mut out = Vec::with_capacity(toks.len());
    let mut at = 0usize;
    for t in &toks {
        if matches!(t.kind, TokKind::Eof) {
            break;
        }
        let (s, e) = (t.span.start as usize, t.span.end as usize);
        if s < at || e < s || e > src.len() || !src.is_char_boundary(s) || !src.is_char_boundary(e)
        {
            continue;
        }
        out.push((src[at..s].to_string(), src[s..e].to_string()));
        at = e;
    }
    (out, src[at.min(src.len())..].to_string())
}

/// Applies 1 to `max_edits` token-level edits (delete, duplicate, swap two tokens,
/// insert a C token, replace a number by an extreme one) to C text.
pub fn mutate_tokens(rng: &mut StdRng, src: &str, max_edits: usize) -> String {
    let (mut toks, tail) = pieces(src);
    let edits = rng.random_range(1..=max_edits.max(1));
    for _ in 0..edits {
        let n = toks.len();
        let pick = |rng: &mut StdRng| rng.random_range(0..n.max(1));
        match rng.random_range(0..6) {
            0 if n > 0 => {
                toks.remove(pick(rng));
            }
            1 if n > 0 => {
                let i = pick(rng);
                let len = rng.random_range(1..=8usize).min(n - i);
                let copy: Vec<_> = toks[i..i + len].to_vec();
                let at = pick(rng);
                toks.splice(at..at, copy);
            }
            2 if n > 1 => {
                let (i, j) = (pick(rng), pick(rng));
                toks.swap(i, j);
            }
            3 if n > 0 => {
                let i = pick(rng);
                if toks[i].1.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                    toks[i].1 = [
                        "0",
                        "-1",
                        "2147483648",
                        "4294967295",
                        "1e400",
                        "0x7fffffffffffffff",
                    ][rng.random_range(0..6)]
                    .to_string();
                } else {
                    toks.remove(i);
                }
            }
            _ => {
                let at = rng.random_range(0..=n);
                let t = INSERTS[rng.random_range(0..INSERTS.len())];
                toks.insert(at, (" ".to_string(), t.to_string()));
            }
        }
    }
    let mut out = String::with_capacity(src.len() + 16);
    for (gap, tok) in &toks {
        out.push_str(gap);
        out.push_str(tok);
    }
    out.push_str(&tail);
    out
}

/// Applies 1 to `max_edits` byte-level edits (flip a bit, delete, duplicate a run,
/// insert a random or interesting byte) to `bytes`.
pub fn mutate_bytes(rng: &mut StdRng, bytes: &mut Vec<u8>, max_edits: usize) {
    const INTERESTING: &[u8] = b"(){}[];,#\"'\\/*\n\0-+=<>.e9";
    let edits = rng.random_range(1..=max_edits.max(1));
    for _ in 0..edits {
        let n = bytes.len();
        match rng.random_range(0..5) {
            0 if n > 0 => {
                let i = rng.random_range(0..n);
                bytes[i] ^= 1 << rng.random_range(0..8);
            }
            1 if n > 0 => {
                let i = rng.random_range(0..n);
                let len = rng.random_range(1..=4usize).min(n - i);
                bytes.drain(i..i + len);
            }
            2 if n > 0 => {
                let i = rng.random_range(0..n);
                let len = rng.random_range(1..=16usize).min(n - i);
                let copy: Vec<u8> = bytes[i..i + len].to_vec();
                let at = rng.random_range(0..=n);
                bytes.splice(at..at, copy);
            }
            3 => {
                let at = rng.random_range(0..=n);
                bytes.insert(at, INTERESTING[rng.random_range(0..INTERESTING.len())]);
            }
            _ => {
                let at = rng.random_range(0..=n);
                bytes.insert(at, rng.random_range(0..=255u8));
            }
        }
    }
}

/// `len` random bytes (half of the time printable ASCII only).
pub fn random_bytes(rng: &mut StdRng, len: usize) -> Vec<u8> {
    let printable = rng.random_range(0..2) == 0;
    (0..len)
        .map(|_| {
            if printable {
                rng.random_range(b' '..=b'~')
            } else {
                rng.random_range(0..=255u8)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn pieces_join_back_to_the_text() {
        let src = "#include <stdio.h>\n/* c */ int main(){ return 1+2; } // end\n";
        let (p, tail) = pieces(src);
        let joined: String = p.iter().map(|(g, t)| format!("{g}{t}")).collect::<String>() + &tail;
        assert_eq!(joined, src);
    }

    #[test]
    fn token_mutation_changes_the_text_deterministically() {
        let src = "int main(){ int a = 1; return a * 2; }";
        let run = |seed| mutate_tokens(&mut StdRng::seed_from_u64(seed), src, 4);
        assert_eq!(run(7), run(7));
        assert!((0..20).any(|s| run(s) != src));
    }
}
