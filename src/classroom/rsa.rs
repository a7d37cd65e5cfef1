//! The login arithmetic of seed 000 (steps 4 and 5): textbook RSA on big integers.
//!
//! A password becomes a number by reading its bytes as the digits of a base-256 number (`abc` =
//! 97·256² + 98·256 + 99 = 6382179). The client raises it to the public exponent modulo `n` and
//! sends the result in hexadecimal; the server raises that to the private exponent and reads the
//! bytes back. The seed suggests "salting" the password: append a NUL byte and random junk, so
//! that the same password never gives the same cipher text; the server keeps only what comes
//! before the first NUL. There is no padding scheme beyond that: this is the course's exercise,
//! kept exactly so that students' own clients can log in.

use num_bigint::BigUint;
use rand::{Rng, RngCore};

/// The exponent every key pair here uses, as the seed's server did.
pub const PUBLIC_EXPONENT: u32 = 65537;

/// The smallest modulus the server accepts to generate (the seed's key was 1024 bits).
pub const MIN_KEY_BITS: u64 = 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicKey {
    pub e: BigUint,
    pub n: BigUint,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrivateKey {
    pub d: BigUint,
    pub n: BigUint,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyPair {
    pub public: PublicKey,
    pub private: PrivateKey,
}

/// `m^e mod n`: encryption with a public key (and, with the private exponent, decryption).
pub fn power_mod(m: &BigUint, exponent: &BigUint, n: &BigUint) -> BigUint {
    m.modpow(exponent, n)
}

/// The seed's text-to-number rule: the bytes of `text` as a base-256 number, first byte most
/// significant.
pub fn text_to_number(text: &[u8]) -> BigUint {
    BigUint::from_bytes_be(text)
}

/// The inverse of `text_to_number`. Leading zero bytes cannot survive the trip (they add nothing
/// to the number), which is why a salt goes after the password, never before.
pub fn number_to_text(m: &BigUint) -> Vec<u8> {
    if m.bits() == 0 {
        return Vec::new();
    }
    m.to_bytes_be()
}

/// What the server keeps of a decrypted password: the bytes before the first NUL (the seed's
/// salt goes after a NUL).
pub fn strip_salt(text: &[u8]) -> &[u8] {
    match text.iter().position(|&b| b == 0) {
        Some(end) => &text[..end],
        None => text,
    }
}

/// Lower-case hexadecimal with no prefix, as the seed sends cipher texts.
pub fn to_hex(m: &BigUint) -> String {
    m.to_str_radix(16)
}

/// Reads hexadecimal (either case, an optional `0x`); `None` for anything else.
pub fn from_hex(text: &str) -> Option<BigUint> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    BigUint::parse_bytes(digits.as_bytes(), 16)
}

impl PublicKey {
    /// The key as the seed prints it: the exponent, a comma, the modulus, in decimal.
    pub fn to_text(&self) -> String {
        format!("{},{}", self.e, self.n)
    }

    /// Reads `e,n` in decimal (spaces and newlines around the numbers are allowed, as in the
    /// seed's own listing).
    pub fn parse(text: &str) -> Result<PublicKey, String> {
        let cleaned: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let (e, n) = cleaned
            .split_once(',')
            .ok_or_else(|| format!("a public key is 'e,n' in decimal, not {text:?}"))?;
        let number = |s: &str, what: &str| {
            BigUint::parse_bytes(s.as_bytes(), 10)
                .ok_or_else(|| format!("the key's {what} {s:?} is not a decimal number"))
        };
        let key = PublicKey {
            e: number(e, "exponent")?,
            n: number(n, "modulus")?,
        };
        if key.n <= BigUint::from(2u32) || key.e == BigUint::from(0u32) {
            return Err(format!("{text:?} is not a usable public key"));
        }
        Ok(key)
    }

    /// The seed's whole client side: text to number, `m^e mod n`, hexadecimal. With `salt`, a
    /// NUL and random letters are appended first, as many as fit under the modulus (at most 16).
    pub fn encrypt_password(
        &self,
        password: &str,
        salt: Option<&mut dyn RngCore>,
    ) -> Result<String, String> {
        let mut text = password.as_bytes().to_vec();
        if text.contains(&0) {
            return Err("a password cannot contain a NUL byte".to_string());
        }
        // The number must stay below n, else it cannot be recovered.
        let room = (self.n.bits() as usize - 1) / 8;
        if text.len() > room {
            return Err(format!(
                "the password is {} bytes, but this key can carry at most {room}",
                text.len()
            ));
        }
        if let Some(rng) = salt {
            let extra = (room - text.len()).min(17);
            if extra >= 2 {
                text.push(0);
                text.extend((1..extra).map(|_| rng.gen_range(b'a'..=b'z')));
            }
        }
        Ok(to_hex(&power_mod(&text_to_number(&text), &self.e, &self.n)))
    }
}

impl PrivateKey {
    /// The server's side: hexadecimal cipher text back to the password's bytes, the salt cut
    /// off. An error for text that is not hexadecimal or not below the modulus.
    pub fn decrypt_password(&self, hex: &str) -> Result<Vec<u8>, String> {
        let c = from_hex(hex.trim()).ok_or_else(|| {
            "the password must be the cipher text in hexadecimal (see /public_key)".to_string()
        })?;
        if c >= self.n {
            return Err("the encrypted password is larger than the key's modulus".to_string());
        }
        let text = number_to_text(&power_mod(&c, &self.d, &self.n));
        Ok(strip_salt(&text).to_vec())
    }
}

/// Small primes, to throw out most candidates before the expensive test.
const SMALL_PRIMES: [u32; 24] = [
    3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
];

/// Miller–Rabin with `rounds` random bases: a composite survives one round with probability at
/// most 1/4.
pub fn is_probable_prime(n: &BigUint, rounds: u32, rng: &mut impl RngCore) -> bool {
    let two = BigUint::from(2u32);
    if *n < two {
        return false;
    }
    if *n == two {
        return true;
    }
    if !n.bit(0) {
        return false;
    }
    for p in SMALL_PRIMES {
        let p = BigUint::from(p);
        if *n == p {
            return true;
        }
        if (n % &p).bits() == 0 {
            return false;
        }
    }
    let one = BigUint::from(1u32);
    let n_minus_one = n - &one;
    let s = n_minus_one.trailing_zeros().unwrap_or(0);
    let d = &n_minus_one >> s;
    'rounds: for _ in 0..rounds {
        // A base in [2, n - 2].
        let a = random_below(&(n - &two - &one), rng) + &two;
        let mut x = a.modpow(&d, n);
        if x == one || x == n_minus_one {
            continue;
        }
        for _ in 1..s {
            x = x.modpow(&two, n);
            if x == n_minus_one {
                continue 'rounds;
            }
        }
        return false;
    }
    true
}

/// A uniformly random number in [0, bound] (inclusive), by rejection.
fn random_below(bound: &BigUint, rng: &mut impl RngCore) -> BigUint {
    let bits = bound.bits().max(1);
    let bytes = bits.div_ceil(8) as usize;
    let excess = bytes as u64 * 8 - bits;
    loop {
        let mut buf = vec![0u8; bytes];
        rng.fill_bytes(&mut buf);
        buf[0] &= 0xff >> excess;
        let candidate = BigUint::from_bytes_be(&buf);
        if candidate <= *bound {
            return candidate;
        }
    }
}

/// A random prime of exactly `bits` bits whose `p - 1` is prime to the public exponent.
fn random_prime(bits: u64, rng: &mut impl RngCore) -> BigUint {
    let e = BigUint::from(PUBLIC_EXPONENT);
    let bytes = bits.div_ceil(8) as usize;
    loop {
        let mut buf = vec![0u8; bytes];
        rng.fill_bytes(&mut buf);
        let mut candidate = BigUint::from_bytes_be(&buf);
        candidate >>= bytes as u64 * 8 - bits;
        // Top two bits set, so that the product of two such primes has exactly twice the bits.
        candidate.set_bit(bits - 1, true);
        candidate.set_bit(bits - 2, true);
        candidate.set_bit(0, true);
        if (&candidate - 1u32) % &e == BigUint::from(0u32) {
            continue;
        }
        if is_probable_prime(&candidate, 40, rng) {
            return candidate;
        }
    }
}

/// A fresh key pair with a modulus of `bits` bits (at least `MIN_KEY_BITS`).
pub fn generate(bits: u64, rng: &mut impl RngCore) -> Result<KeyPair, String> {
    if bits < MIN_KEY_BITS {
        return Err(format!(
            "a key of {bits} bits is too weak: at least {MIN_KEY_BITS}"
        ));
    }
    let e = BigUint::from(PUBLIC_EXPONENT);
    loop {
        let p = random_prime(bits / 2, rng);
        let q = random_prime(bits - bits / 2, rng);
        if p == q {
            continue;
        }
        let n = &p * &q;
        if n.bits() != bits {
            continue;
        }
        let phi = (&p - 1u32) * (&q - 1u32);
        let Some(d) = e.modinv(&phi) else { continue };
        return Ok(KeyPair {
            public: PublicKey {
                e: e.clone(),
                n: n.clone(),
            },
            private: PrivateKey { d, n },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn big(n: u64) -> BigUint {
        BigUint::from(n)
    }

    #[test]
    fn the_seeds_worked_example() {
        // Step 4: public key (5, 493), private key (269, 493), secret 327, cipher text 259.
        assert_eq!(power_mod(&big(327), &big(5), &big(493)), big(259));
        assert_eq!(power_mod(&big(259), &big(269), &big(493)), big(327));
        // 493 = 17 · 29, and 5 · 269 = 1345 = 1 + 3 · 448, so the pair really is inverse.
        let phi = big(16 * 28);
        assert_eq!(big(5).modinv(&phi), Some(big(269)));
    }

    #[test]
    fn the_seeds_text_to_number_rule() {
        assert_eq!(text_to_number(b"abc"), big(6382179));
        assert_eq!(number_to_text(&big(6382179)), b"abc".to_vec());
        assert_eq!(number_to_text(&big(0)), Vec::<u8>::new());
        // `hello, world!` from step 5 is 13 bytes, so a number of 13 · 8 - 1 = 103 bits ('h' is
        // 0x68, whose top bit is clear).
        assert_eq!(text_to_number(b"hello, world!").bits(), 103);
    }

    #[test]
    fn public_keys_read_and_write_as_e_comma_n() {
        let key = PublicKey::parse(" 5,\n 493 ").unwrap();
        assert_eq!((key.e.clone(), key.n.clone()), (big(5), big(493)));
        assert_eq!(key.to_text(), "5,493");
        assert!(PublicKey::parse("65537").is_err());
        assert!(PublicKey::parse("65537,12a4").is_err());
        assert!(PublicKey::parse("1,1").is_err());
    }

    #[test]
    fn hex_reads_both_cases_and_refuses_the_rest() {
        assert_eq!(from_hex("ff"), Some(big(255)));
        assert_eq!(from_hex("0xFF"), Some(big(255)));
        assert_eq!(to_hex(&big(259)), "103");
        assert_eq!(from_hex(""), None);
        assert_eq!(from_hex("12g4"), None);
        assert_eq!(from_hex("-12"), None);
    }

    #[test]
    fn miller_rabin_tells_primes_from_composites() {
        let mut rng = SmallRng::seed_from_u64(1);
        for p in [
            2u64,
            3,
            5,
            97,
            7919,
            1_000_000_007,
            2_305_843_009_213_693_951,
        ] {
            assert!(is_probable_prime(&big(p), 20, &mut rng), "{p} is prime");
        }
        // 561 and 41041 are Carmichael numbers, which fool the plain Fermat test.
        for c in [0u64, 1, 4, 9, 561, 41041, 1_000_000_007 * 3, 7919 * 7927] {
            assert!(
                !is_probable_prime(&big(c), 20, &mut rng),
                "{c} is composite"
            );
        }
    }

    #[test]
    fn a_generated_key_round_trips_passwords_with_and_without_salt() {
        let mut rng = SmallRng::seed_from_u64(7);
        let pair = generate(1024, &mut rng).unwrap();
        assert_eq!(pair.public.n.bits(), 1024);
        assert_eq!(pair.public.e, big(65537));
        // d really inverts e: a random number survives the round trip.
        let m = big(31415926);
        let c = power_mod(&m, &pair.public.e, &pair.public.n);
        assert_ne!(c, m);
        assert_eq!(power_mod(&c, &pair.private.d, &pair.private.n), m);

        let plain = pair.public.encrypt_password("s3cret", None).unwrap();
        assert_eq!(plain, pair.public.encrypt_password("s3cret", None).unwrap());
        assert_eq!(pair.private.decrypt_password(&plain).unwrap(), b"s3cret");
        let salted_a = pair
            .public
            .encrypt_password("s3cret", Some(&mut rng))
            .unwrap();
        let salted_b = pair
            .public
            .encrypt_password("s3cret", Some(&mut rng))
            .unwrap();
        assert_ne!(salted_a, salted_b, "salt makes every cipher text different");
        assert_eq!(pair.private.decrypt_password(&salted_a).unwrap(), b"s3cret");
        assert_eq!(
            pair.private
                .decrypt_password(&salted_b.to_uppercase())
                .unwrap(),
            b"s3cret"
        );
    }

    #[test]
    fn bad_cipher_texts_and_passwords_are_refused() {
        let mut rng = SmallRng::seed_from_u64(3);
        let pair = generate(1024, &mut rng).unwrap();
        assert!(pair.private.decrypt_password("not hex").is_err());
        assert!(pair.private.decrypt_password("").is_err());
        let too_big = to_hex(&(&pair.public.n + 1u32));
        assert!(pair.private.decrypt_password(&too_big).is_err());
        assert!(pair.public.encrypt_password("a\0b", None).is_err());
        assert!(pair
            .public
            .encrypt_password(&"x".repeat(200), None)
            .is_err());
        assert!(generate(512, &mut rng).is_err());
    }
}
