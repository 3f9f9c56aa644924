//! `cp`, `mv`.
use crate::shell::command::Context;
use crate::shell::LimitHit;

pub(super) fn cp(ctx: &mut Context<'_>, _args: &[String]) -> Result<i32, LimitHit> {
    ctx.error("not written yet")?;
    Ok(1)
}
pub(super) fn mv(ctx: &mut Context<'_>, _args: &[String]) -> Result<i32, LimitHit> {
    ctx.error("not written yet")?;
    Ok(1)
}
