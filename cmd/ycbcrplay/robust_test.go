package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// TestMain turns -cache off by default, and lets the robustness tests run this test binary as the ycbcrplay command: with
// YCBCRPLAY_AS_MAIN=1 it is main() (the same run function, the process's real stdout, stderr and exit
// status), without a separate go build. YCBCRPLAY_FAULT=call:result:afterN injects a Vulkan fault
// first (vkx.InjectFault); YCBCRPLAY_TEST_HWFAIL=N a hardware decoding failure after N frames
// (avx.InjectHWFailure); YCBCRPLAY_TEST_KEYS presses keys after given frames, headless too
// (parseKeyScript; the read-ahead tests seek with it).
func TestMain(m *testing.M) {
	// Nothing is kept between the tests' runs unless a test asks with -cache (start_test.go).
	defaultCacheDir = func() string { return "off" }
	if os.Getenv("YCBCRPLAY_AS_MAIN") == "1" {
		if f := os.Getenv("YCBCRPLAY_FAULT"); f != "" {
			parts := strings.Split(f, ":")
			if len(parts) != 3 {
				parts = []string{"", "x", "x"}
			}
			res, err1 := strconv.Atoi(parts[1])
			after, err2 := strconv.Atoi(parts[2])
			if err1 != nil || err2 != nil {
				fmt.Fprintf(os.Stderr, "bad YCBCRPLAY_FAULT %q: want call:result:afterN\n", f)
				os.Exit(3)
			}
			vkx.InjectFault(parts[0], vk.Result(res), after)
		}
		if v := os.Getenv("YCBCRPLAY_TEST_KEYS"); v != "" {
			script, err := parseKeyScript(v)
			if err != nil {
				fmt.Fprintf(os.Stderr, "bad YCBCRPLAY_TEST_KEYS %q: %v\n", v, err)
				os.Exit(3)
			}
			keyScript = func(n int) []window.Key { return script[n] }
		}
		if v := os.Getenv("YCBCRPLAY_TEST_HWFAIL"); v != "" { // avx.InjectHWFailure(N), -tags ycbcrkit_faults
			n, err := strconv.Atoi(v)
			if err != nil {
				fmt.Fprintf(os.Stderr, "bad YCBCRPLAY_TEST_HWFAIL %q: want a frame count\n", v)
				os.Exit(3)
			}
			injectHWFailure(n)
		}
		if how := os.Getenv("YCBCRPLAY_TEST_OPENING"); how != "" {
			onOpening = pressWhileOpening(how, os.Getenv("YCBCRPLAY_TEST_PRESSED"))
		}
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	// Neither the user's config file nor their watch_later positions: a folder of the tests' own
	// (subprocesses inherit it, or get a test's own through their environment).
	home, err := os.MkdirTemp("", "ycbcrplay-test-home-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	testHome = home
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	os.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// caseTimeout bounds every corpus case: bad input must end in an error, never in a hang.
const caseTimeout = 10 * time.Second

// testHome is TestMain's folder for the tests' own files, removed when the binary ends.
var testHome string

// The corpus is written once for what makes it (three tests play it, none writes to it): about
// 30 ffmpeg and perl runs, 5.5 CPU-s, that make test's plain and race runs of this package would
// otherwise each pay.
var (
	corpusOnce  sync.Once
	corpusFiles []string
	corpusErr   string
)

// corpus lists testvectors/badinputs.sh's files, written into the system's temporary folder under
// a name that hashes what makes them (corpusKey) and shared by every test binary that plays them;
// the first one writes them, under a lock, into a folder it renames into place when complete.
func corpus(t *testing.T) []string {
	t.Helper()
	corpusOnce.Do(func() {
		if err := makeCorpus(); err != nil {
			corpusErr = err.Error()
			return
		}
	})
	if corpusErr != "" {
		t.Fatal(corpusErr)
	}
	return corpusFiles
}

func makeCorpus() error {
	key, err := corpusKey()
	if err != nil {
		return err
	}
	dir := filepath.Join(os.TempDir(), "ycbcrkit-badinputs-"+key)
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil { // released by Close
		return fmt.Errorf("lock %s: %w", lock.Name(), err)
	}
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		tmp, err := os.MkdirTemp(os.TempDir(), "ycbcrkit-badinputs-partial-*")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp) // nothing left once renamed
		if out, err := exec.Command("../../testvectors/badinputs.sh", tmp).CombinedOutput(); err != nil {
			return fmt.Errorf("badinputs.sh: %v\n%s", err, out)
		}
		if err := os.Rename(tmp, dir); err != nil {
			return err
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		corpusFiles = append(corpusFiles, filepath.Join(dir, e.Name()))
	}
	sort.Strings(corpusFiles)
	if len(corpusFiles) < 60 {
		return fmt.Errorf("badinputs.sh made only %d files in %s", len(corpusFiles), dir)
	}
	return nil
}

// corpusKey hashes what the corpus is made of: badinputs.sh, the vectors it damages
// (testvectors/media) and the ffmpeg program it runs (its path, size and time).
func corpusKey() (string, error) {
	h := sha256.New()
	files, err := filepath.Glob("../../testvectors/media/*")
	if err != nil {
		return "", err
	}
	for _, f := range append([]string{"../../testvectors/badinputs.sh"}, files...) {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.Base(f), len(b))
		h.Write(b)
	}
	ff, err := exec.LookPath("ffmpeg")
	if err != nil {
		return "", err
	}
	st, err := os.Stat(ff)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "%s %d %d\n", ff, st.Size(), st.ModTime().UnixNano())
	return fmt.Sprintf("%x", h.Sum(nil))[:16], nil
}

// outcome is one run of the player on one input.
type outcome struct {
	code           int
	stdout, stderr string
	elapsed        time.Duration
}

// runner runs cases on one goroutine locked to one OS thread, as the command runs them on its main
// thread. (A fresh goroutine per case would hop between OS threads, and each thread that calls into
// C gets its own glibc malloc arena: RSS would keep growing for many passes while arenas fill, with
// no leak at all.)
type runner struct{ req chan runReq }

type runReq struct {
	args []string
	done chan outcome
}

func newRunner(t *testing.T) *runner {
	r := &runner{req: make(chan runReq)}
	go func() {
		runtime.LockOSThread()
		for q := range r.req {
			var o, e bytes.Buffer
			start := time.Now()
			code := -1
			func() {
				defer func() {
					// A panic would kill the whole test binary; report it as a failure instead.
					if p := recover(); p != nil {
						fmt.Fprintf(&e, "panic: %v\n", p)
					}
				}()
				code = run(q.args, &o, &e)
			}()
			q.done <- outcome{code, o.String(), e.String(), time.Since(start)}
		}
	}()
	t.Cleanup(func() { close(r.req) })
	return r
}

// run calls run in-process on the runner and fails the test if it takes longer than caseTimeout. (A
// run that hangs cannot be stopped from outside; the test ends there.)
func (r *runner) run(t *testing.T, args ...string) outcome {
	t.Helper()
	q := runReq{args, make(chan outcome, 1)}
	r.req <- q
	select {
	case o := <-q.done:
		return o
	case <-time.After(caseTimeout):
		t.Fatalf("%v: still running after %s", args, caseTimeout)
	}
	return outcome{}
}

// checkOutcome applies the contract for one input. Exit 0: one JSON object on stdout with
// frames_presented > 0, and stderr holds only notices. Otherwise: stderr ends with exactly one
// "error: " line, everything before it is a notice, and no panic or goroutine dump. No line repeats.
// The file's name prefix says which outcome is required: play_ exit 0, fail_ non-zero, any_ either.
func checkOutcome(t *testing.T, file string, r outcome) (presented, damaged int) {
	t.Helper()
	base := filepath.Base(file)
	lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
	if r.stderr == "" {
		lines = nil
	}
	if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
		t.Errorf("%s: stderr has a panic or goroutine dump:\n%s", base, r.stderr)
	}
	errLines := 0
	seen := map[string]bool{}
	for i, l := range lines {
		if seen[l] {
			t.Errorf("%s: stderr repeats %q", base, l)
		}
		seen[l] = true
		switch {
		case strings.HasPrefix(l, "error: "):
			errLines++
			if i != len(lines)-1 {
				t.Errorf("%s: error line is not the last line of stderr:\n%s", base, r.stderr)
			}
		case strings.HasPrefix(l, "notice: "):
		default:
			t.Errorf("%s: stderr line %q is neither a notice nor the error", base, l)
		}
	}
	if r.code == 0 {
		var st map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
			t.Errorf("%s: exit 0 but stdout is not one JSON object: %v: %q", base, err, r.stdout)
			return 0, 0
		}
		p, _ := st["frames_presented"].(float64)
		d, _ := st["frames_damaged"].(float64)
		if p <= 0 {
			t.Errorf("%s: exit 0 with frames_presented %v", base, st["frames_presented"])
		}
		if errLines != 0 {
			t.Errorf("%s: exit 0 with an error line:\n%s", base, r.stderr)
		}
		if strings.HasPrefix(base, "fail_") {
			t.Errorf("%s: played (%v frames), want a clean failure", base, p)
		}
		return int(p), int(d)
	}
	if errLines != 1 {
		t.Errorf("%s: exit %d with %d error lines, want exactly one:\n%s", base, r.code, errLines, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("%s: exit %d but stdout has %q", base, r.code, r.stdout)
	}
	if strings.HasPrefix(base, "play_") {
		t.Errorf("%s: exit %d, want it played: %s", base, r.code, r.stderr)
	}
	return 0, 0
}

// memSample is the Go heap after a collection and the process's resident set.
type memSample struct{ heap, rss uint64 }

func sampleMem(t *testing.T) memSample {
	t.Helper()
	runtime.GC()
	runtime.GC() // a second cycle runs the finalizers the first one queued (FFmpeg frames, ...)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return memSample{ms.HeapAlloc, rssBytes(t)}
}

// rssBytes is VmRSS from /proc/self/status.
func rssBytes(t testing.TB) uint64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// TestRobustCorpus plays every file of testvectors/badinputs.sh headless, untimed, in-process, twice:
// each plays what is decodable or fails with one error line, none panics, none takes over
// caseTimeout, and the second pass over the same corpus leaves memory where the first left it.
//
// Memory bound: the first pass warms up what is loaded once per process and kept (lavapipe's LLVM
// pipelines and shader caches, the Vulkan loader's and FFmpeg's static tables, glibc arenas), so
// growth is measured from the end of pass 1 to the end of pass 2 (measured: +2 MiB of RSS, the Go
// heap flat). The limits, 16 MiB of RSS and 2 MiB of Go heap over the pass's 82 runs, catch a leak
// of about 200 KB of C memory or 25 KB of Go memory per run: an unclosed decoder (its thread contexts
// and buffer pools), an undestroyed device or renderer (lavapipe's pipelines, images and staging
// buffers) or a frame of the default clip (345 KB) left unreleased each run all exceed them.
//
// Under -race one pass: every case's goroutines meet the race detector once, and the memory check
// is the plain run's (the detector's own shadow memory grows with the work done).
func TestRobustCorpus(t *testing.T) {
	files := corpus(t)
	rn := newRunner(t)
	pass := func(n int) (played, failed, frames, damaged int, slowest time.Duration, slowName string) {
		for _, f := range files {
			r := rn.run(t, "-headless", "-untimed", "-stats", f)
			p, d := checkOutcome(t, f, r)
			if r.code == 0 {
				played++
			} else {
				failed++
			}
			frames += p
			damaged += d
			if r.elapsed > slowest {
				slowest, slowName = r.elapsed, filepath.Base(f)
			}
			if n == 1 && testing.Verbose() {
				last := strings.TrimSpace(r.stderr)
				if i := strings.LastIndexByte(last, '\n'); i >= 0 {
					last = last[i+1:]
				}
				t.Logf("%-40s exit %d  %5.2fs  frames %3d damaged %2d  %s", filepath.Base(f), r.code, r.elapsed.Seconds(), p, d, last)
			}
		}
		return
	}
	before := sampleMem(t)
	start := time.Now()
	played, failed, frames, damaged, slow, slowName := pass(1)
	t.Logf("pass 1: %d files in %.1fs: %d played (%d frames, %d damaged), %d failed cleanly; slowest %s %.2fs",
		len(files), time.Since(start).Seconds(), played, frames, damaged, failed, slowName, slow.Seconds())
	if raceDetector {
		return
	}
	warm := sampleMem(t)
	start = time.Now()
	played2, failed2, frames2, _, _, _ := pass(2)
	after := sampleMem(t)
	t.Logf("pass 2: %.1fs: %d played (%d frames), %d failed", time.Since(start).Seconds(), played2, frames2, failed2)
	t.Logf("memory: before %.1f MiB RSS / %.1f MiB heap; after pass 1 %.1f / %.1f; after pass 2 %.1f / %.1f",
		mib(before.rss), mib(before.heap), mib(warm.rss), mib(warm.heap), mib(after.rss), mib(after.heap))
	if played2 != played || failed2 != failed {
		t.Errorf("pass 2 differs: %d played, %d failed (pass 1: %d, %d)", played2, failed2, played, failed)
	}
	const rssLimit, heapLimit = 16 << 20, 2 << 20
	if after.rss > warm.rss+rssLimit {
		t.Errorf("RSS grew by %.1f MiB over the second pass (limit %.0f MiB)", mib(after.rss-warm.rss), mib(rssLimit))
	}
	if after.heap > warm.heap+heapLimit {
		t.Errorf("Go heap grew by %.1f MiB over the second pass (limit %.0f MiB)", mib(after.heap-warm.heap), mib(heapLimit))
	}
}

// TestRobustSubprocess runs a few corpus cases as a separate ycbcrplay process (this test binary as
// main, see TestMain): the real exit status, and a stderr on which FFmpeg's own log does not appear
// (it would spill a line per damaged macroblock row) and no panic shows.
func TestRobustSubprocess(t *testing.T) {
	dir := filepath.Dir(corpus(t)[0])
	for _, name := range []string{"fail_text.mp4", "fail_rgb4.nut", "fail_absurd_100000x100000.y4m",
		"any_trunc10_bt601.mkv", "any_flip_yuv420p_left.mkv", "play_change_size_format.ts"} {
		cmd := exec.Command(os.Args[0], "-headless", "-untimed", "-stats", filepath.Join(dir, name))
		cmd.Env = append(os.Environ(), "YCBCRPLAY_AS_MAIN=1")
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		timer := time.AfterFunc(caseTimeout, func() { cmd.Process.Kill() })
		err := cmd.Wait()
		timer.Stop()
		code := 0
		if err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok || !ee.Exited() {
				t.Errorf("%s: %v (killed after %s?)", name, err, caseTimeout)
				continue
			}
			code = ee.ExitCode()
		}
		checkOutcome(t, name, outcome{code, o.String(), e.String(), time.Since(start)})
		t.Logf("%-32s exit %d in %.2fs: %s", name, code, time.Since(start).Seconds(), strings.TrimSpace(e.String()))
	}
}

// scriptKeys are the names YCBCRPLAY_TEST_KEYS takes.
var scriptKeys = map[string]window.Key{"right": window.KeyRight, "left": window.KeyLeft, "up": window.KeyUp,
	"down": window.KeyDown, "comma": window.KeyComma, "period": window.KeyPeriod, "space": window.KeySpace,
	"s": window.KeyS, "q": window.KeyQuit, "pgup": window.KeyChapterNext, "pgdn": window.KeyChapterPrev,
	"l": window.KeyL, "Q": window.KeyQuitSave}

// parseKeyScript reads "N:key,key;M:key": the keys pressed after the N-th presented frame.
func parseKeyScript(v string) (map[int][]window.Key, error) {
	script := map[int][]window.Key{}
	for _, step := range strings.Split(v, ";") {
		at, names, ok := strings.Cut(step, ":")
		n, err := strconv.Atoi(at)
		if !ok || err != nil || n < 1 {
			return nil, fmt.Errorf("step %q: want N:key[,key]", step)
		}
		for _, name := range strings.Split(names, ",") {
			k, ok := scriptKeys[name]
			if !ok {
				return nil, fmt.Errorf("unknown key %q", name)
			}
			script[n] = append(script[n], k)
		}
	}
	return script, nil
}
