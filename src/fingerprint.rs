//! Content fingerprints: 64-bit FNV-1a, the crate's one non-cryptographic hash (run seeds, exercise ids, subject and build fingerprints).

/// FNV-1a's 64-bit offset basis: the hash of no bytes.
pub const EMPTY: u64 = 0xcbf2_9ce4_8422_2325;

/// Continues the FNV-1a hash `h` over `bytes`.
pub fn extend(h: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(h, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The FNV-1a hash of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    extend(EMPTY, bytes)
}

/// A fingerprint of several byte strings, each ended by its length so that moving bytes
/// from one part to the next changes it.
pub fn of_parts<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> u64 {
    parts.into_iter().fold(EMPTY, |h, p| {
        extend(extend(h, p), &(p.len() as u64).to_le_bytes())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_part_boundaries() {
        // The FNV-1a reference values.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        assert_ne!(
            of_parts([&b"ab"[..], &b"c"[..]]),
            of_parts([&b"a"[..], &b"bc"[..]])
        );
    }
}
