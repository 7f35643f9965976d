package contactvalidator_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// service is the real contact-validator, started once for the whole suite by TestMain with
// clients/testing/start-service.ts: an in-process service on a throw-away SQLite database with a fault proxy in front.
var service struct {
	URL        string `json:"url"`        // the fault proxy
	DirectURL  string `json:"direct_url"` // the service itself
	APIKey     string `json:"api_key"`
	AccountID  string `json:"account_id"`
	ControlURL string `json:"control_url"`
}

func TestMain(m *testing.M) {
	os.Exit(runWithService(m))
}

func runWithService(m *testing.M) int {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cmd := exec.Command("node", "--import", "tsx", "clients/testing/start-service.ts")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "starting the service (node --import tsx clients/testing/start-service.ts in %s): %v\n", root, err)
		return 1
	}
	stop := func() {
		stdin.Close() // the service stops, deleting its files, when its stdin closes
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	line := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		l, _ := r.ReadString('\n')
		line <- l
		_, _ = io.Copy(io.Discard, r)
	}()
	select {
	case l := <-line:
		if err := json.Unmarshal([]byte(l), &service); err != nil || service.URL == "" {
			stop()
			fmt.Fprintf(os.Stderr, "the service did not start: %q\n%s\n", l, stderr.String())
			return 1
		}
	case <-time.After(60 * time.Second):
		stop()
		fmt.Fprintf(os.Stderr, "the service did not start within 60 s\n%s\n", stderr.String())
		return 1
	}
	code := m.Run()
	stop()
	if code != 0 && stderr.Len() > 0 {
		fmt.Fprintf(os.Stderr, "service stderr:\n%s\n", stderr.String())
	}
	return code
}

// fault tells the proxy to answer the next count requests with fault ("503", "429", "drop_before", "drop_after").
func fault(t *testing.T, kind string, count int) {
	t.Helper()
	res, err := http.Post(service.ControlURL, "application/json", strings.NewReader(fmt.Sprintf(`{"fault":%q,"count":%d}`, kind, count)))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
}

type proxyCounts struct {
	Forwarded int `json:"forwarded"`
	Faulted   int `json:"faulted"`
	Pending   int `json:"pending"`
}

func counts(t *testing.T) proxyCounts {
	t.Helper()
	res, err := http.Get(service.ControlURL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var c proxyCounts
	if err := json.NewDecoder(res.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	return c
}
