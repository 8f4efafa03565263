//! `sample(k, {…})`: k items of a set drawn at random when the story is compiled, from a
//! seeded generator, so that a seed always gives the same story on every machine.

/// SplitMix64 (Steele, Lea and Flood): tiny, fast, and good enough to draw samples.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0), by Lemire's multiply-shift.
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }

    /// `k` distinct indices of `0..n` (k ≤ n), each k-subset equally likely, in
    /// increasing order.
    pub fn choose(&mut self, k: usize, n: usize) -> Vec<usize> {
        let mut pool: Vec<usize> = (0..n).collect();
        for i in 0..k {
            let j = i + self.below(n - i);
            pool.swap(i, j);
        }
        let mut chosen = pool[..k].to_vec();
        chosen.sort_unstable();
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_sample() {
        assert_eq!(Rng::new(7).choose(10, 50), Rng::new(7).choose(10, 50));
        assert_ne!(Rng::new(7).choose(10, 50), Rng::new(8).choose(10, 50));
    }

    #[test]
    fn samples_are_distinct_sorted_and_in_range() {
        let mut rng = Rng::new(1);
        for k in 0..=20 {
            let chosen = rng.choose(k, 20);
            assert_eq!(chosen.len(), k);
            assert!(chosen.windows(2).all(|w| w[0] < w[1]));
            assert!(chosen.iter().all(|&i| i < 20));
        }
    }

    #[test]
    fn every_item_is_drawn_about_equally_often() {
        let mut rng = Rng::new(3);
        let mut hits = [0u32; 10];
        for _ in 0..10_000 {
            for i in rng.choose(3, 10) {
                hits[i] += 1;
            }
        }
        // Each item is expected 3000 times; 4 standard deviations is about ±180.
        assert!(hits.iter().all(|&h| (2800..3200).contains(&h)), "{hits:?}");
    }

    /// Pins the generator: a change would change every sampled story's worlds.
    #[test]
    fn splitmix64_reference_values() {
        let mut rng = Rng::new(1234567);
        assert_eq!(rng.next(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next(), 3_203_168_211_198_807_973);
    }
}
