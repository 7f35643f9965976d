package contactvalidator_test

// Issue #30: what the client costs per call over a hand-written net/http call of the same request (same headers, a
// fresh Idempotency-Key, the answer decoded into the same struct), at 32 calls in flight.
//
//	go test -bench . -run '^$' -benchtime 3s
//
// BenchmarkOverhead runs both against the real service, alternating rounds so that both see the same machine, and
// reports overhead_%. BenchmarkClientSide* does the same against an in-process canned answer, where the client's own
// work is all there is to see.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	cv "github.com/contact-validator/contact-validator-go"
)

const concurrency = 32

var benchParams = cv.ValidateParams{Address: "1600 Amphitheatre Pkwy, Mountain View, CA 94043", Email: "someone@example.com"}

func newTransportClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: t}
}

// rawValidate is what a careful user would write without the library.
func rawValidate(hc *http.Client, base, key string) error {
	body, _ := json.Marshal(benchParams)
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, base+"/v1/validate", bytes.NewReader(body))
	if err != nil {
		return err
	}
	var id [16]byte
	rand.Read(id[:])
	id[6], id[8] = id[6]&0x0f|0x40, id[8]&0x3f|0x80
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", hex.EncodeToString(id[:])) // same length class as a UUID; format irrelevant to cost
	req.Header.Set("User-Agent", "raw")
	res, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != 200 {
		return fmt.Errorf("status %d: %s", res.StatusCode, data)
	}
	var out cv.ValidateResult
	return json.Unmarshal(data, &out)
}

func parallelism() int { return (concurrency + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0) }

func benchParallel(b *testing.B, call func() error) {
	b.SetParallelism(parallelism())
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := call(); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkValidate(b *testing.B) {
	hc := newTransportClient()
	client := cv.New(service.APIKey, cv.WithBaseURL(service.DirectURL))
	b.Run("raw", func(b *testing.B) {
		benchParallel(b, func() error { return rawValidate(hc, service.DirectURL, service.APIKey) })
	})
	b.Run("client", func(b *testing.B) {
		benchParallel(b, func() error { _, err := client.Validate(context.Background(), benchParams); return err })
	})
}

// runRound makes n calls with 32 in flight and returns the time it took and the CPU time this process used.
func runRound(n int, call func() error) (time.Duration, time.Duration, error) {
	cpu := processCPU()
	d, err := runCalls(n, call)
	return d, processCPU() - cpu, err
}

func runCalls(n int, call func() error) (time.Duration, error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var failure atomic.Value
	began := time.Now()
	for w := 0; w < concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				if err := call(); err != nil {
					failure.Store(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err, _ := failure.Load().(error); err != nil {
		return 0, err
	}
	return time.Since(began), nil
}

// overhead alternates rounds of raw and client calls (b.N calls each) and reports both costs and the difference.
func overhead(b *testing.B, base string) {
	hc := newTransportClient()
	client := cv.New(service.APIKey, cv.WithBaseURL(base))
	raw := func() error { return rawValidate(hc, base, service.APIKey) }
	lib := func() error { _, err := client.Validate(context.Background(), benchParams); return err }
	// Warm both connection pools.
	if _, _, err := runRound(concurrency*4, raw); err != nil {
		b.Fatal(err)
	}
	if _, _, err := runRound(concurrency*4, lib); err != nil {
		b.Fatal(err)
	}
	rounds := 20
	per := max(b.N/rounds, concurrency)
	var tRaw, tLib, cpuRaw, cpuLib time.Duration
	ratios := make([]float64, 0, rounds)
	b.ResetTimer()
	for r := 0; r < rounds; r++ {
		var dRaw, dLib time.Duration
		for i := 0; i < 2; i++ {
			isRaw := (i+r)%2 == 0 // raw first in even rounds, the client first in odd ones
			f, total, cpuTotal := lib, &dLib, &cpuLib
			if isRaw {
				f, total, cpuTotal = raw, &dRaw, &cpuRaw
			}
			d, cpu, err := runRound(per, f)
			if err != nil {
				b.Fatal(err)
			}
			*total, *cpuTotal = d, *cpuTotal+cpu
		}
		tRaw, tLib = tRaw+dRaw, tLib+dLib
		ratios = append(ratios, float64(dLib)/float64(dRaw))
	}
	b.StopTimer()
	calls := float64(per * rounds)
	rawNs, libNs := float64(tRaw.Nanoseconds())/calls, float64(tLib.Nanoseconds())/calls
	b.ReportMetric(rawNs, "raw-ns/call")
	b.ReportMetric(libNs, "client-ns/call")
	b.ReportMetric((libNs-rawNs)/rawNs*100, "overhead-%")
	// The machine may be shared: the median of the paired rounds' ratios is less moved by a burst of other work.
	sort.Float64s(ratios)
	b.ReportMetric((ratios[len(ratios)/2]-1)*100, "median-overhead-%")
	// CPU time of this process per call: in BenchmarkOverhead that is the caller's side alone (the service is another
	// process), so the difference is the library's own cost, much less noisy than wall time on a busy machine.
	cpuRawUs, cpuLibUs := float64(cpuRaw.Microseconds())/calls, float64(cpuLib.Microseconds())/calls
	b.ReportMetric(cpuRawUs, "raw-cpu-us/call")
	b.ReportMetric(cpuLibUs, "client-cpu-us/call")
	b.ReportMetric((cpuLibUs-cpuRawUs)*1000/rawNs*100, "client-extra-cpu-%-of-raw-call")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkOverhead: the real service (direct, no proxy), 32 calls in flight.
func BenchmarkOverhead(b *testing.B) { overhead(b, service.DirectURL) }

const cannedAnswer = `{"address":{"status":"plausible","standardized":"1600 AMPHITHEATRE PKWY MOUNTAIN VIEW CA 94043","dpv":"","zip4":null,"country":"US","components":{"primary_number":"1600","street_predirection":null,"street_name":"AMPHITHEATRE","street_suffix":"PKWY","street_postdirection":null,"secondary_designator":null,"secondary_number":null,"city":"MOUNTAIN VIEW","state":"CA","postal_code":"94043","plus4":null,"country":"US"},"footnotes":["N#: abbreviations and spelling standardized (USPS Publication 28)"]},"email":{"status":"unknown","risk":"medium","smtp":"skipped","reason":"not_checked","normalized":"someone@example.com","suggestion":null,"disposable":false,"role":false,"free":false},"phone":null,"credits":{"charged":1,"remaining":999},"request_id":"req_x","response_ms":1}`

// BenchmarkClientSideOverhead: an in-process canned answer, so that only the two callers' own work differs.
func BenchmarkClientSideOverhead(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, cannedAnswer)
	}))
	defer srv.Close()
	overhead(b, srv.URL)
}

// BenchmarkClientSideSequential: one call at a time against the canned answer, with allocations: the library's own
// cost per call, free of the scheduling noise of 32 goroutines on a busy machine.
func BenchmarkClientSideSequential(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, cannedAnswer)
	}))
	defer srv.Close()
	hc := newTransportClient()
	client := cv.New(service.APIKey, cv.WithBaseURL(srv.URL))
	b.Run("raw", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := rawValidate(hc, srv.URL, service.APIKey); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("client", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := client.Validate(context.Background(), benchParams); err != nil {
				b.Fatal(err)
			}
		}
	})
}
