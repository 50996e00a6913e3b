// client.mjs: drives ycbcrplay with the npm "mpv" package (a JSON IPC client written for mpv,
// porsager/mpv 2.0.3) and prints what it saw as one JSON line. Usage: node client.mjs MODULE WRAPPER
// (MODULE: the package's index.js; WRAPPER: mpv.sh).
const [, , modulePath, wrapper] = process.argv
const { default: Mpv } = await import(modulePath)

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
