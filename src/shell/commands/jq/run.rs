//! The run loop: each input through the compiled filter, each output
//! printed, errors reported with jq's wording and status.

use super::*;

pub(super) enum Outcome {
    Done,
    Error,
    Halt(i32),
}

pub(super) fn location_text(location: &RefCell<Location>) -> String {
    let location = location.borrow();
    match &location.name {
        Some(name) => format!("{name}:{}", location.line),
        None => "<unknown>".into(),
    }
}

pub(super) fn flush_stderr(ctx: &mut Context<'_>, global: &Global) -> Result<(), LimitHit> {
    let pending = std::mem::take(&mut *global.stderr.borrow_mut());
    if pending.is_empty() {
        Ok(())
    } else {
        ctx.stderr.write(&pending)
    }
}

/// Prints one run's outputs; stops at its first error, as jq does.
pub(super) fn run_outputs<'a>(
    ctx: &mut Context<'_>,
    opts: &Options,
    global: &Global,
    location: &RefCell<Location>,
    outputs: impl Iterator<Item = ValX<'a, V>>,
    last_output: &mut Option<bool>,
) -> Result<Outcome, LimitHit> {
    let mut text = String::new();
    let too_deep = |ctx: &mut Context<'_>| -> Result<bool, LimitHit> {
        if !TOO_DEEP.with(|flag| flag.replace(false)) {
            return Ok(false);
        }
        let at = location_text(location);
        ctx.stderr.write_str(&format!("jq: error (at {at}): Exceeds depth limit of {MAX_DEPTH} building a value\n"))?;
        Ok(true)
    };
    for output in outputs {
        (ctx.check)()?;
        flush_stderr(ctx, global)?;
        if is_too_big() {
            return Err(LimitHit::Memory);
        }
        if let Some(hit) = STOPPED.with(Cell::get) {
            return Err(hit);
        }
        if too_deep(ctx)? {
            return Ok(Outcome::Error);
        }
        match output {
            Ok(V(value)) => {
                *last_output = Some(!matches!(value, Val::Null | Val::Bool(false)));
                text.clear();
                let raw = if opts.raw_output { text_of(&value) } else { None };
                match raw {
                    Some(raw) => text.push_str(&raw),
                    None => {
                        if format_value(&mut text, &value, &opts.style, 0).is_err() {
                            if is_too_big() {
                                return Err(LimitHit::Memory);
                            }
                            let message = format!(
                                "jq: error (at {}): value nested deeper than {MAX_DEPTH} levels cannot be printed\n",
                                location_text(location)
                            );
                            ctx.stderr.write_str(&message)?;
                            drop_deep(value);
                            return Ok(Outcome::Error);
                        }
                    }
                }
                if !opts.join_output {
                    text.push('\n');
                }
                drop_deep(value);
                ctx.stdout.write_str(&text)?;
            }
            Err(exn) => match exn.get_err() {
                Ok(error) => {
                    ctx.stderr.write_str(&runtime_error(error, &location_text(location)))?;
                    return Ok(Outcome::Error);
                }
                Err(exn) => match exn.get_halt() {
                    Ok(_) if too_deep(ctx)? => return Ok(Outcome::Error),
                    Ok(code) => return Ok(Outcome::Halt(code)),
                    Err(_) => {
                        ctx.stderr.write_str("jq: error: break outside of its label\n")?;
                        return Ok(Outcome::Error);
                    }
                },
            },
        }
    }
    if too_deep(ctx)? {
        return Ok(Outcome::Error);
    }
    Ok(Outcome::Done)
}
