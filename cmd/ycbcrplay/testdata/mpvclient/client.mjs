// client.mjs: drives ycbcrplay with the npm "mpv" package (a JSON IPC client written for mpv,
// porsager/mpv 2.0.3) and prints what it saw as one JSON line. Usage: node client.mjs MODULE WRAPPER
// (MODULE: the package's index.js; WRAPPER: mpv.sh).
const [, , modulePath, wrapper, scenario, clipA, clipB] = process.argv
const { default: Mpv } = await import(modulePath)
const sleep = ms => new Promise(r => setTimeout(r, ms))
// until waits (25 ms turns, 10 s at most) for f() to hold.
const until = async f => { for (let i = 0; i < 400 && !f(); i++) await sleep(25); return f() }
if (scenario === 'idle') await idle()

const out = {}
const mpv = await Mpv({ path: wrapper, args: [], stdout: () => {} })
const restarts = []
mpv.on('playback-restart', () => restarts.push(Date.now()))
out.duration = await mpv.get('duration')
out.filename = await mpv.get('filename')
const pauses = []
await mpv.observe('pause', v => pauses.push(v))
// The client's observe resolves before observe_property's reply, and registers the callback in a
// promise reaction to that reply; its socket reader handles every line of one read before reactions
// run, so events that arrive in the same read as the reply are dropped by the client. When the
// server's replies and events coalesce into one read (a busy machine), setting pause right away lost
// its event. A round trip (replies come in request order) and a timer turn (reactions drained) make
// sure the callback is registered before pause changes; mpv itself would meet the same client.
await mpv.get('pause')
await new Promise(r => setTimeout(r, 0))
await mpv.set('pause', true)
out.pause = await mpv.get('pause')
const before = restarts.length
await mpv.command('seek', 2, 'absolute')
for (let i = 0; i < 200 && restarts.length === before; i++) await new Promise(r => setTimeout(r, 25))
out.restarted = restarts.length > before
out.timePos = await mpv.get('time-pos')
try {
  await mpv.get('no-such-property')
  out.unknown = 'no error'
} catch (e) {
  out.unknown = String(e.message)
}
// The pause change's event may come after get's reply: wait for it (5 s at most), not a fixed time.
for (let i = 0; i < 200 && pauses[pauses.length - 1] !== true; i++) await new Promise(r => setTimeout(r, 25))
out.pauses = pauses
console.log(JSON.stringify(out))
mpv.end()
process.exit(0)

// idle: a front-end's session (node client.mjs MODULE WRAPPER idle CLIP_A CLIP_B, WRAPPER
// frontend.sh: the client's own spawn arguments, --idle among them): the player starts with nothing
// loaded, loadfile plays A (file-loaded, time-pos observed moving), B is appended, pause, a seek
// (playback-restart, time-pos), playlist-next to B, stop back to idle, A again from 3.5 s kept open
// at its end (--keep-open), quit. Prints one JSON line.
async function idle() {
  const out = { events: [] }
  const mpv = await Mpv({ path: wrapper, args: ['--keep-open'], stdout: () => {} })
  for (const e of ['start-file', 'file-loaded', 'playback-restart', 'end-file', 'idle', 'seek'])
    mpv.on(e, x => out.events.push(e === 'end-file' ? e + ':' + x.reason : e))
  out.idleAtStart = await mpv.get('idle-active')
  out.countAtStart = await mpv.get('playlist-count')
  const times = [], idles = [], pauses = [], eofs = []
  await mpv.observe('time-pos', v => times.push(v))
  await mpv.observe('eof-reached', v => eofs.push(v))
  await mpv.observe('idle-active', v => idles.push(v))
  await mpv.observe('pause', v => pauses.push(v))
  // The client registers observers after observe_property's reply (see the end of this file's main
  // scenario): a round trip and a timer turn before anything changes.
  await mpv.get('pause')
  await sleep(0)
  const loaded = () => out.events.filter(e => e === 'file-loaded').length
  await mpv.command('loadfile', clipA)
  await until(() => loaded() === 1)
  out.filenameA = await mpv.get('filename')
  out.duration = await mpv.get('duration')
  out.idleWhilePlaying = await mpv.get('idle-active')
  await mpv.command('loadfile', clipB, 'append')
  out.count = await mpv.get('playlist-count')
  await until(() => times.some(t => t > 0.3))
  out.moved = times.some(t => t > 0.3)
  await mpv.set('pause', true)
  out.pause = await mpv.get('pause')
  const restarts = out.events.filter(e => e === 'playback-restart').length
  await mpv.command('seek', 2, 'absolute')
  await until(() => out.events.filter(e => e === 'playback-restart').length > restarts)
  out.timePos = await mpv.get('time-pos')
  await mpv.set('pause', false)
  await mpv.command('playlist-next')
  await until(() => loaded() === 2)
  out.filenameB = await mpv.get('filename')
  out.posB = await mpv.get('playlist-pos')
  await mpv.command('stop')
  await until(() => out.events.includes('idle') && idles[idles.length - 1] === true)
  out.idleAfterStop = await mpv.get('idle-active')
  out.countAfterStop = await mpv.get('playlist-count')
  try {
    await mpv.get('time-pos')
    out.timePosIdle = 'no error'
  } catch (e) {
    out.timePosIdle = String(e.message)
  }
  // --keep-open: a file loaded at 3.5 s of 4 (loadfile's per-file start, mpv 0.38's form with its
  // index) stays on its last picture, paused, eof-reached true, not idle.
  await mpv.command('loadfile', clipA, 'replace', -1, 'start=3.5')
  await until(() => eofs[eofs.length - 1] === true)
  out.kept = { eof: await mpv.get('eof-reached'), pause: await mpv.get('pause'), idle: await mpv.get('idle-active'),
    timePos: await mpv.get('time-pos') }
  out.times = times.length
  out.idles = idles
  out.pauses = pauses
  // quit: the client would spawn the player again when it closes; take that listener off first.
  const exited = new Promise(r => mpv.process.once('exit', code => r(code)))
  mpv.process.removeAllListeners('close')
  mpv.command('quit').catch(() => {})
  out.exit = await exited
  console.log(JSON.stringify(out))
  process.exit(0)
}
