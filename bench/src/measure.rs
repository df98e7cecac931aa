//! The measuring method every timed figure shares: warm-up, then interleaved repetitions of the
//! two sides (A, B, A, B, ...), and the median of the pairs' ratios. The two runs of a pair are
//! adjacent in time, so a slow spell of a shared machine slows both; the median ignores the odd
//! pair that was interrupted. (The ratio of each side's median, used before, could take its two
//! medians from different spells: one run read 0.74 that way where its pairs read about 0.55.)

use std::fmt;
use std::time::Duration;

use anyhow::Result;

/// The two things a figure compares: `Ours` is the numerator, `Baseline` the denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Ours,
    Baseline,
}

/// The limit a figure must respect. Figures are judged at the precision they are printed with
/// (two decimals), so what the line shows is what passed or failed.
#[derive(Clone, Copy, Debug)]
pub enum Bound {
    AtMost(f64),
    Exactly(f64),
}

impl Bound {
    pub fn admits(self, value: f64) -> bool {
        let shown = (value * 100.0).round() / 100.0;
        match self {
            Self::AtMost(limit) => shown <= limit,
            Self::Exactly(expected) => shown == expected,
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // `{:?}` keeps one decimal on whole numbers: `<= 1.0`, `<= 1.25`.
            Self::AtMost(limit) => write!(f, "<= {limit:?}"),
            // Exact bounds are counts: `== 1`.
            Self::Exactly(expected) => write!(f, "== {expected}"),
        }
    }
}

/// One timed comparison. Construction does the setup (data, servers); `sample` times one
/// repetition of one side; dropping it tears the setup down.
pub trait Comparison {
    /// How the two sides are named on the printed line, `Ours` first.
    fn labels(&self) -> [&'static str; 2];
    fn bound(&self) -> Bound;
    /// Runs one repetition of `side` and returns the time it took, setup excluded.
    fn sample(&mut self, side: Side) -> Result<Duration>;

    /// One repetition of each side, `Ours` first. Figures whose repetitions take long enough
    /// for the machine's load to change meanwhile override this to interleave in chunks, so
    /// that a busy spell slows both sides alike.
    fn pair(&mut self) -> Result<(Duration, Duration)> {
        Ok((self.sample(Side::Ours)?, self.sample(Side::Baseline)?))
    }
}

/// One repetition of both sides as `chunks` alternating chunks (`Ours`, `Baseline`, `Ours`,
/// ...), each side's time the sum of its chunks; `run(side)` runs one chunk of `side`.
pub fn chunked_pair(
    chunks: usize,
    mut run: impl FnMut(Side) -> Result<Duration>,
) -> Result<(Duration, Duration)> {
    let (mut ours, mut baseline) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..chunks {
        ours += run(Side::Ours)?;
        baseline += run(Side::Baseline)?;
    }
    Ok((ours, baseline))
}

/// A finished figure, ready to print.
#[derive(Debug)]
pub struct Figure {
    pub name: &'static str,
    pub value: f64,
    /// What the numerator and denominator were, already formatted (`generated 41.2 ms`).
    pub ours: String,
    pub baseline: String,
    pub bound: Bound,
}

impl Figure {
    pub fn ok(&self) -> bool {
        self.value.is_finite() && self.bound.admits(self.value)
    }
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Counts print as counts; ratios with the two decimals they are judged at.
        let value = match self.bound {
            Bound::Exactly(_) => format!("{}", self.value),
            Bound::AtMost(_) => format!("{:.2}", self.value),
        };
        write!(
            f,
            "ratio {} {value}  ({} / {}; bound {}) {}",
            self.name,
            self.ours,
            self.baseline,
            self.bound,
            if self.ok() { "ok" } else { "MISSED" }
        )
    }
}

/// How many repetitions to run.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub warmup: usize,
    pub repetitions: usize,
}

/// Warms both sides up, runs `plan.repetitions` interleaved pairs and returns the figure: the
/// median of the pairs' ratios, with each side's median time for the printed line.
pub fn compare(name: &'static str, comparison: &mut dyn Comparison, plan: Plan) -> Result<Figure> {
    for _ in 0..plan.warmup {
        comparison.pair()?;
    }
    let mut ours = Vec::with_capacity(plan.repetitions);
    let mut baseline = Vec::with_capacity(plan.repetitions);
    for _ in 0..plan.repetitions {
        let (ours_time, baseline_time) = comparison.pair()?;
        ours.push(ours_time);
        baseline.push(baseline_time);
    }
    let value = median_ratio(&ours, &baseline);
    let (ours, baseline) = (median(&mut ours), median(&mut baseline));
    let [ours_label, baseline_label] = comparison.labels();
    Ok(Figure {
        name,
        value,
        ours: format!("{ours_label} {}", millis(ours)),
        baseline: format!("{baseline_label} {}", millis(baseline)),
        bound: comparison.bound(),
    })
}

/// The median; for an even count, the mean of the two middle values.
pub fn median(samples: &mut [Duration]) -> Duration {
    assert!(!samples.is_empty(), "a median needs at least one sample");
    samples.sort_unstable();
    middle(samples, |low, high| (low + high) / 2)
}

/// The middle of `sorted`; for an even count, `mean` of the two middle values.
fn middle<T: Copy>(sorted: &[T], mean: impl Fn(T, T) -> T) -> T {
    let middle = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[middle]
    } else {
        mean(sorted[middle - 1], sorted[middle])
    }
}

/// The median of `ours[i] / baseline[i]` over the pairs; NaN (never admitted by a bound) when
/// a baseline took no time.
pub fn median_ratio(ours: &[Duration], baseline: &[Duration]) -> f64 {
    assert!(
        !ours.is_empty() && ours.len() == baseline.len(),
        "ratios need pairs"
    );
    let mut ratios: Vec<f64> = ours
        .iter()
        .zip(baseline)
        .map(|(ours, baseline)| ours.as_secs_f64() / baseline.as_secs_f64())
        .collect();
    if ratios.iter().any(|ratio| !ratio.is_finite()) {
        return f64::NAN;
    }
    ratios.sort_unstable_by(f64::total_cmp);
    middle(&ratios, |low, high| (low + high) / 2.0)
}

pub fn millis(duration: Duration) -> String {
    format!("{:.1} ms", duration.as_secs_f64() * 1e3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        let ms = Duration::from_millis;
        assert_eq!(median(&mut [ms(3), ms(1), ms(2)]), ms(2));
        assert_eq!(
            median(&mut [ms(4), ms(1), ms(2), ms(3)]),
            Duration::from_micros(2500)
        );
    }

    #[test]
    fn the_figure_is_the_median_of_the_pairs_ratios() {
        let ms = Duration::from_millis;
        // A slow spell doubles both runs of the last two pairs, which still read 0.5; the
        // medians of the sides come from different pairs (12 and 40 ms), whose ratio is 0.3.
        let ours = [ms(10), ms(10), ms(12), ms(20), ms(20)];
        let baseline = [ms(20), ms(20), ms(40), ms(40), ms(40)];
        assert_eq!(median_ratio(&ours, &baseline), 0.5);
        assert_eq!(median_ratio(&[ms(1), ms(3)], &[ms(2), ms(2)]), 1.0);
        assert!(median_ratio(&[ms(1)], &[ms(0)]).is_nan());
    }

    #[test]
    fn bounds_judge_the_printed_value() {
        assert!(Bound::AtMost(1.25).admits(1.2549));
        assert!(!Bound::AtMost(1.25).admits(1.2551));
        assert!(Bound::Exactly(1.0).admits(1.0));
        assert!(!Bound::Exactly(1.0).admits(2.0));
    }

    #[test]
    fn lines_have_the_documented_shape() {
        let figure = Figure {
            name: "decode_vs_value",
            value: 0.8312,
            ours: "generated 41.2 ms".into(),
            baseline: "value 49.6 ms".into(),
            bound: Bound::AtMost(1.0),
        };
        assert_eq!(
            figure.to_string(),
            "ratio decode_vs_value 0.83  (generated 41.2 ms / value 49.6 ms; bound <= 1.0) ok"
        );
    }
}
