package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// slurm writes a job array of one task per slice, each running its slice
// with its CPUs, and refuses what Slurm would misread.
func TestSlurmScript(t *testing.T) {
	pdir := filepath.Join(t.TempDir(), "my plan")
	cli(t, true, append(append([]string{"sweep"}, planSweep...), "-plan", pdir)...)
	code, _, errOut := cli(t, true, "slurm", "-plan", pdir, "-tasks", "3", "-cpus-per-task", "2", "-partition", "short", "-bin", "/opt/phitsim")
	if code != 0 || !strings.Contains(errOut, "12 runs in 3 array tasks of 2 CPUs") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(filepath.Join(pdir, "job.sbatch"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"#!/bin/bash\n", "#SBATCH --array=0-2\n", "#SBATCH --cpus-per-task=2\n", "#SBATCH --partition=short\n",
		"#SBATCH --job-name=phitsim-my_plan\n", "#SBATCH --time=0-00:06:00\n", // the 5 min start-up margin and milliseconds of runs, rounded up
		"#SBATCH --output=\"" + filepath.Join(pdir, "logs", "task-%A_%a.out") + "\"\n",
		"exec '/opt/phitsim' exec -plan '" + pdir + "' -task \"$SLURM_ARRAY_TASK_ID\" -tasks 3 -cpus \"${SLURM_CPUS_PER_TASK:-2}\"\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("job.sbatch lacks %q:\n%s", want, s)
		}
	}
	if !regexp.MustCompile(`(?m)^#SBATCH --mem=\d+M$`).MatchString(s) {
		t.Errorf("no --mem:\n%s", s)
	}
	// the script parses as bash
	if out, err := exec.Command("bash", "-n", filepath.Join(pdir, "job.sbatch")).CombinedOutput(); err != nil {
		t.Errorf("bash -n: %v %s", err, out)
	}
	for _, bad := range [][]string{{"-tasks", "13"}, {"-cpus-per-task", "0"}, {"-resubmit", "1"}} {
		if code, _, errOut := cli(t, true, append([]string{"slurm", "-plan", pdir}, bad...)...); code != 1 {
			t.Errorf("%v: exit %d: %s", bad, code, errOut)
		}
	}
	// -status: the runs, and with an array's record, the tasks with runs left
	cli(t, true, "exec", "-plan", pdir, "-task", "1", "-tasks", "3")
	os.WriteFile(filepath.Join(pdir, "slurm.json"), []byte(`{"tasks": 3, "cpusPerTask": 2, "jobs": ["41"]}`), 0o644)
	code, out, _ := cli(t, true, "slurm", "-plan", pdir, "-status")
	if code != 0 || !strings.Contains(out, "12 runs: 4 done, 0 failed, 8 missing") || !strings.Contains(out, "tasks with runs left: 0,2") ||
		!strings.Contains(out, "-resubmit 0,2") {
		t.Errorf("-status: exit %d:\n%s", code, out)
	}
	// -resubmit keeps the array's slices: only its indices change
	if code, _, errOut := cli(t, true, "slurm", "-plan", pdir, "-resubmit", "3"); code != 1 || !strings.Contains(errOut, `"3" is not a task index 0 … 2`) {
		t.Errorf("-resubmit 3: exit %d: %s", code, errOut)
	}
	// a record edited past what a submission writes is refused by name, not
	// looped over (tasks 10¹¹ spun -status and -resubmit for minutes)
	for _, rec := range []string{`{"tasks": 100000000000, "jobs": ["41"]}`, `{"tasks": 13, "jobs": ["41"]}`, `{"tasks": -3, "jobs": ["41"]}`,
		`{"jobs": ["41"]}`, `{"tasks": 3, "cpusPerTask": -2, "jobs": ["41"]}`} {
		os.WriteFile(filepath.Join(pdir, "slurm.json"), []byte(rec), 0o644)
		for _, cmd := range [][]string{{"-status"}, {"-resubmit", "0"}} {
			code, _, errOut := cli(t, true, append([]string{"slurm", "-plan", pdir}, cmd...)...)
			if code != 1 || !strings.Contains(errOut, "slurm.json: ") || !strings.Contains(errOut, "remove it and submit again") {
				t.Errorf("%s %v: exit %d: %s", rec, cmd, code, errOut)
			}
		}
	}
}

// The time and memory a task asks for: the thesis's h=8 point (60,000 +
// 60,000 cycles, about 6 CPU-minutes measured, engine/BENCHMARKS.md) gets
// more than that, and the 4 runs of a 4-CPU task more than 4 runs' memory.
func TestSlurmEstimates(t *testing.T) {
	pdir := filepath.Join(t.TempDir(), "h8")
	if code, _, errOut := cli(t, true, "sweep", "-preset", "h8", "-series", "routing.name=MIN,VAL", "-loads", "0.1:0.4:0.1", "-seeds", "2", "-plan", pdir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if code, _, errOut := cli(t, true, "slurm", "-plan", pdir); code != 0 || !strings.Contains(errOut, "16 runs in 4 array tasks of 4 CPUs") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(filepath.Join(pdir, "job.sbatch"))
	m := regexp.MustCompile(`--time=0-(\d\d):(\d\d):00\n(?s:.*)--mem=(\d+)M\n`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatalf("job.sbatch:\n%s", b)
	}
	h, _ := strconv.Atoi(m[1])
	min, _ := strconv.Atoi(m[2])
	mem, _ := strconv.Atoi(m[3])
	// each task: 4 runs at once, the costliest VAL at 0.4 (MIN at 0.4 measures 6 min)
	if minutes := 60*h + min; minutes < 12 || minutes > 120 {
		t.Errorf("--time %d min for runs of about 6–12 min", minutes)
	}
	if mem < 4*91 || mem > 8<<10 {
		t.Errorf("--mem %d MiB for 4 runs of 91 MiB measured", mem)
	}
	t.Logf("h=8 task of 4 runs: --time=%s:%s --mem=%dM", m[1], m[2], mem)
}

// A one-node Slurm cluster (munged, slurmctld, slurmd as root, no cgroups)
// runs a plan as a job array of 3 tasks; the merged result is the sweep's,
// bit for bit but the runs' CPU times (h=2, 2 routings × 3 loads × 2
// seeds). The plan's path has a space (quoted in the script's #SBATCH
// lines). Skipped without Slurm, unless CI=true.
func TestSlurmCluster(t *testing.T) {
	for _, tool := range []string{"sbatch", "squeue", "scontrol", "slurmctld", "slurmd", "munged"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is missing (test.sh installs slurm-wlm and munge)", tool)
			}
			t.Skipf("%s is missing: apt-get install -y slurm-wlm munge", tool)
		}
	}
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("the one-node cluster runs its daemons as root")
		}
		t.Skip("the one-node cluster runs its daemons as root")
	}
	if testing.Short() {
		t.Skip("starts a Slurm cluster")
	}
	cl := startCluster(t)
	bin := buildBinary(t)
	dir := t.TempDir()
	pdir := filepath.Join(dir, "my plan")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = cl.env
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("phitsim %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
		}
		return out.String()
	}
	run(append(append([]string{"sweep"}, planSweep...), "-plan", pdir)...)
	id := strings.TrimSpace(run("slurm", "-plan", pdir, "-tasks", "3", "-cpus-per-task", "1", "-mem", "300M", "-time", "10", "-submit"))
	if _, err := strconv.Atoi(id); err != nil {
		t.Fatalf("job id %q", id)
	}
	cl.jobs = append(cl.jobs, id)
	deadline := time.Now().Add(3 * time.Minute)
	for {
		out, err := cl.command("squeue", "-h", "-j", id, "-o", "%i %T %r").Output()
		if err == nil && strings.TrimSpace(string(out)) == "" {
			break
		}
		if time.Now().After(deadline) {
			logs, _ := filepath.Glob(filepath.Join(pdir, "logs", "*"))
			t.Fatalf("job %s not done after 3 min: squeue %q %v; logs %v; %s", id, out, err, logs, cl.logs())
		}
		time.Sleep(time.Second)
	}
	status := run("slurm", "-plan", pdir, "-status")
	if !strings.Contains(status, "12 runs: 12 done, 0 failed, 0 missing") || !strings.Contains(status, "every run is done") ||
		!strings.Contains(status, "in the queue: no task (the array has ended)") {
		logs, _ := filepath.Glob(filepath.Join(pdir, "logs", "*"))
		var text []string
		for _, l := range logs {
			b, _ := os.ReadFile(l)
			text = append(text, l+":\n"+string(b))
		}
		t.Fatalf("-status:\n%s\ntask logs:\n%s\n%s", status, strings.Join(text, "\n"), cl.logs())
	}
	for task := 0; task < 3; task++ {
		b, err := os.ReadFile(filepath.Join(pdir, "logs", fmt.Sprintf("task-%s_%d.out", id, task)))
		if err != nil || !strings.Contains(string(b), fmt.Sprintf("task %d of 3: 4 runs, 0 already finished, 4 run now, 0 failed", task)) {
			t.Errorf("task %d's log: %v\n%s", task, err, b)
		}
	}
	run("merge", "-plan", pdir, "-out", filepath.Join(dir, "m"))
	run(append(append([]string{"sweep"}, planSweep...), "-out", filepath.Join(dir, "s"))...)
	sameFiles(t, filepath.Join(dir, "s"), filepath.Join(dir, "m"))
}

// cluster is a one-node Slurm cluster in a temporary folder.
type cluster struct {
	dir  string
	env  []string // SLURM_CONF set
	jobs []string // submitted, cancelled at the end
	t    *testing.T
}

func (c *cluster) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = c.env
	return cmd
}

// logs are the daemons' logs, for a failure's message.
func (c *cluster) logs() string {
	var b strings.Builder
	for _, f := range []string{"slurmctld.log", "slurmd.log", "munged.log"} {
		data, _ := os.ReadFile(filepath.Join(c.dir, f))
		if len(data) > 3000 {
			data = data[len(data)-3000:]
		}
		fmt.Fprintf(&b, "--- %s (end):\n%s\n", f, data)
	}
	return b.String()
}

// freePort is a TCP port free now on localhost.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startCluster starts munged, slurmctld and slurmd in the foreground as
// children of the test, each stopped by t.Cleanup (after the jobs are
// cancelled and gone), whatever the test's outcome.
func startCluster(t *testing.T) *cluster {
	// a short path: munge's socket path must fit in a sockaddr_un
	dir, err := os.MkdirTemp("", "slurm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	c := &cluster{dir: dir, t: t}
	for _, d := range []string{"state", "spool", "munge"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	key := make([]byte, 1024)
	rand.Read(key)
	keyFile := filepath.Join(dir, "munge", "munge.key")
	if err := os.WriteFile(keyFile, key, 0o400); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(dir, "munge", "socket")
	c.daemon("munged", "-F", "--force", "--key-file="+keyFile, "--socket="+socket,
		"--pid-file="+filepath.Join(dir, "munge", "munged.pid"), "--log-file="+filepath.Join(dir, "munged.log"),
		"--seed-file="+filepath.Join(dir, "munge", "seed"))
	c.wait("munged's socket", func() bool { _, err := os.Stat(socket); return err == nil })

	conf := filepath.Join(dir, "slurm.conf")
	cpus := min(runtime.NumCPU(), 2)
	text := fmt.Sprintf(`ClusterName=phitsimtest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=%d
SlurmdPort=%d
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=%s
StateSaveLocation=%s
SlurmdSpoolDir=%s
SlurmctldPidFile=%s
SlurmdPidFile=%s
SlurmctldLogFile=%s
SlurmdLogFile=%s
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
MaxArraySize=1001
NodeName=localhost NodeAddr=127.0.0.1 CPUs=%d RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
`, freePort(t), freePort(t), socket, filepath.Join(dir, "state"), filepath.Join(dir, "spool"),
		filepath.Join(dir, "slurmctld.pid"), filepath.Join(dir, "slurmd.pid"),
		filepath.Join(dir, "slurmctld.log"), filepath.Join(dir, "slurmd.log"), cpus)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c.env = append(os.Environ(), "SLURM_CONF="+conf)
	c.daemon("slurmctld", "-D", "-i", "-f", conf)
	c.wait("slurmctld", func() bool { return c.command("scontrol", "ping").Run() == nil })
	c.daemon("slurmd", "-D", "-N", "localhost", "-f", conf)
	c.wait("the node idle", func() bool {
		out, err := c.command("sinfo", "-h", "-N", "-o", "%T").Output()
		return err == nil && strings.TrimSpace(string(out)) == "idle"
	})
	// first registered, last stopped: jobs cancelled and gone before the daemons
	t.Cleanup(func() {
		if len(c.jobs) == 0 {
			return
		}
		c.command("scancel", c.jobs...).Run()
		for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
			out, err := c.command("squeue", "-h", "-j", strings.Join(c.jobs, ",")).Output()
			if err == nil && strings.TrimSpace(string(out)) == "" {
				return
			}
		}
		t.Errorf("jobs %v still queued or running at the end", c.jobs)
	})
	return c
}

// daemon starts a daemon in the foreground, in its own process group, and
// stops it at the test's end: SIGTERM, then SIGKILL after 10 s.
func (c *cluster) daemon(name string, args ...string) {
	t := c.t
	cmd := c.command(name, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	// a daemon that exits at once (a bad configuration) fails the test with its words
	select {
	case err := <-exited:
		exited <- err
		t.Fatalf("%s exited: %v\n%s\n%s", name, err, out.String(), c.logs())
	case <-time.After(200 * time.Millisecond):
	}
}

// wait polls ready for 60 s.
func (c *cluster) wait(what string, ready func() bool) {
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if ready() {
			return
		}
	}
	c.t.Fatalf("waiting for %s: timed out\n%s", what, c.logs())
}
