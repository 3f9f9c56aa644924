//! jq's math functions of one and two arguments (libm's, in Rust).

pub(super) fn math1(name: &str, x: f64) -> f64 {
    match name {
        "sqrt" => x.sqrt(),
        "cbrt" => x.cbrt(),
        "fabs" => x.abs(),
        "exp" => x.exp(),
        "exp2" => x.exp2(),
        "exp10" => 10f64.powf(x),
        "expm1" => x.exp_m1(),
        "log" => x.ln(),
        "log2" => x.log2(),
        "log10" => x.log10(),
        "log1p" => x.ln_1p(),
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tan" => x.tan(),
        "asin" => x.asin(),
        "acos" => x.acos(),
        "atan" => x.atan(),
        "sinh" => x.sinh(),
        "cosh" => x.cosh(),
        "tanh" => x.tanh(),
        "asinh" => x.asinh(),
        "acosh" => x.acosh(),
        "atanh" => x.atanh(),
        "trunc" => x.trunc(),
        "rint" => x.round_ties_even(),
        "significand" => {
            if x == 0.0 || !x.is_finite() {
                x
            } else {
                frexp(x).0 * 2.0
            }
        }
        "logb" => {
            if x == 0.0 {
                f64::NEG_INFINITY
            } else if !x.is_finite() {
                x.abs()
            } else {
                (frexp(x).1 - 1) as f64
            }
        }
        "lgamma" => lgamma(x),
        "tgamma" => lgamma(x).exp() * if x < 0.0 && (x.floor() as i64) % 2 != 0 { -1.0 } else { 1.0 },
        _ => f64::NAN,
    }
}

pub(super) fn math2(name: &str, a: f64, b: f64) -> f64 {
    match name {
        "pow" => a.powf(b),
        "atan2" => a.atan2(b),
        "fmin" => a.min(b),
        "fmax" => a.max(b),
        "fmod" => a % b,
        "hypot" => a.hypot(b),
        "copysign" => a.copysign(b),
        "ldexp" => a * 2f64.powf(b.trunc()),
        "remainder" => a - b * (a / b).round_ties_even(),
        "nextafter" => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else if a == b {
                b
            } else if a == 0.0 {
                f64::from_bits(1).copysign(b)
            } else {
                let bits = a.to_bits();
                let away = (b > a) == (a > 0.0);
                f64::from_bits(if away { bits + 1 } else { bits - 1 })
            }
        }
        _ => f64::NAN,
    }
}

/// Mantissa in [0.5, 1) and exponent, as C's frexp.
pub(super) fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale up first.
        let (m, e) = frexp(x * 2f64.powi(54));
        return (m, e - 54);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exp - 1022)
}

/// ln|Γ(x)| by the Lanczos approximation.
pub(super) fn lgamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let s = (std::f64::consts::PI * x).sin().abs();
        return std::f64::consts::PI.ln() - s.ln() - lgamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}
