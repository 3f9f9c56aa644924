//! `ls`, `du`, `stat`.
use crate::shell::command::Context;
use crate::shell::LimitHit;

pub(super) fn ls(ctx: &mut Context<'_>, _args: &[String]) -> Result<i32, LimitHit> {
    ctx.error("not written yet")?;
    Ok(1)
}
pub(super) fn du(ctx: &mut Context<'_>, _args: &[String]) -> Result<i32, LimitHit> {
    ctx.error("not written yet")?;
    Ok(1)
}
pub(super) fn stat(ctx: &mut Context<'_>, _args: &[String]) -> Result<i32, LimitHit> {
    ctx.error("not written yet")?;
    Ok(1)
}
