// Copyright 2026 The Invoicing Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package httpapi

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// MaxBodyBytes is the largest request body accepted (1 MiB).
const MaxBodyBytes = 1 << 20

// Options tune the adapter. Zero values take the defaults in DefaultOptions.
type Options struct {
	// RequestTimeout bounds each request, Kubernetes API calls included:
	// a request that cannot finish in time is answered 503.
	RequestTimeout time.Duration
	// RateLimit is the sustained number of requests per second allowed to
	// each caller identity, RateBurst the bucket size. A negative RateLimit
	// disables rate limiting.
	RateLimit float64
	RateBurst int
	// TokenCacheTTL is how long a TokenReview answer is reused.
	TokenCacheTTL time.Duration
	// TokenAudiences, when set, are the audiences a caller's token must be
	// bound to (kubectl create token --audience): the TokenReview asks for
	// them, so a token for the API server is refused with 401. Empty
	// accepts any token the API server accepts.
	TokenAudiences []string
	// AllowCacheTTL and DenyCacheTTL are how long SubjectAccessReview
	// answers are reused.
	AllowCacheTTL time.Duration
	DenyCacheTTL  time.Duration
	// ReadYourWritesTimeout is how long an object this replica created is
	// served from its own memory while its informer has not delivered it
	// (normally milliseconds): a create answers at once, and the same
	// client's next get or list through this replica sees the object.
	ReadYourWritesTimeout time.Duration
	// NoReadOthersWrites turns off the read barrier on the last page of a
	// list: one coalesced single-name list per kind from the API server, a
	// wait for the informer (bounded) and, when it lags or its kind is
	// idle, the page read from the API server. With one replica it saves
	// that; with several, a client may then not see its own create in a
	// list answered by another replica for as long as that replica's
	// informer lags.
	NoReadOthersWrites bool
	// ReadyBeforeSynced makes GET /readyz answer 200 as soon as the
	// Kubernetes API answers, before the cache has synced: meanwhile gets,
	// creates and whole-workspace lists are read from the API server, and
	// filtered lists and the feeds wait for the cache (store/warming.go).
	// For a single replica, whose readiness otherwise refuses every request
	// until its cache is complete; with several, leave it off, so that a
	// rollout keeps the old replica serving until the new one is warm.
	ReadyBeforeSynced bool
	// EncodedCacheBytes bounds the JSON of listed invoices and customers
	// kept for the next page that lists them again unchanged (encoded.go).
	// 0 means the default, 64 MiB; a negative value keeps none.
	EncodedCacheBytes int64
	// IdempotencyInFlightWait bounds how long a retry waits for the request
	// that first used its Idempotency-Key to finish.
	IdempotencyInFlightWait time.Duration
	// StaleClaimAfter is the age after which an Idempotency-Key whose object
	// does not exist is taken to belong to a request that died, and is
	// claimed anew. It must exceed the longest a create can take.
	StaleClaimAfter time.Duration

	// HTTP server timeouts and limits (see net/http.Server).
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int
	// ShutdownTimeout bounds the graceful shutdown of Run.
	ShutdownTimeout time.Duration

	// MaxStreamsPerCaller bounds the open event streams (of all kinds) per
	// caller identity; one more is answered 429.
	MaxStreamsPerCaller int
	// StreamHeartbeat is how often an idle stream sends a comment, so that
	// proxies keep its connection open.
	StreamHeartbeat time.Duration
	// StreamWriteTimeout is how long a stream's write may block before the
	// client, who stopped reading, is dropped.
	StreamWriteTimeout time.Duration

	// Metrics, when set, is where the request count and latency series
	// (invoicing_http_requests_total, invoicing_http_request_duration_seconds)
	// are registered. cmd/adapter serves it on its metrics endpoint.
	Metrics prometheus.Registerer
}

// DefaultOptions are the defaults of the adapter's flags.
func DefaultOptions() Options {
	return Options{
		RequestTimeout:          10 * time.Second,
		RateLimit:               50,
		RateBurst:               100,
		TokenCacheTTL:           10 * time.Second,
		AllowCacheTTL:           10 * time.Second,
		DenyCacheTTL:            5 * time.Second,
		ReadYourWritesTimeout:   time.Minute,
		IdempotencyInFlightWait: 5 * time.Second,
		StaleClaimAfter:         2 * time.Minute,
		ReadHeaderTimeout:       5 * time.Second,
		ReadTimeout:             15 * time.Second,
		WriteTimeout:            20 * time.Second,
		IdleTimeout:             60 * time.Second,
		MaxHeaderBytes:          64 << 10,
		ShutdownTimeout:         15 * time.Second,
		MaxStreamsPerCaller:     4,
		StreamHeartbeat:         15 * time.Second,
		StreamWriteTimeout:      10 * time.Second,
		EncodedCacheBytes:       64 << 20,
	}
}

// WithDefaults is o with its zero values replaced by DefaultOptions'.
func (o Options) WithDefaults() Options { return o.withDefaults() }

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	set := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&o.RequestTimeout, d.RequestTimeout)
	set(&o.TokenCacheTTL, d.TokenCacheTTL)
	set(&o.AllowCacheTTL, d.AllowCacheTTL)
	set(&o.DenyCacheTTL, d.DenyCacheTTL)
	set(&o.ReadYourWritesTimeout, d.ReadYourWritesTimeout)
	set(&o.IdempotencyInFlightWait, d.IdempotencyInFlightWait)
	set(&o.StaleClaimAfter, d.StaleClaimAfter)
	set(&o.ReadHeaderTimeout, d.ReadHeaderTimeout)
	set(&o.ReadTimeout, d.ReadTimeout)
	set(&o.WriteTimeout, d.WriteTimeout)
	set(&o.IdleTimeout, d.IdleTimeout)
	set(&o.ShutdownTimeout, d.ShutdownTimeout)
	set(&o.StreamHeartbeat, d.StreamHeartbeat)
	set(&o.StreamWriteTimeout, d.StreamWriteTimeout)
	if o.MaxStreamsPerCaller <= 0 {
		o.MaxStreamsPerCaller = d.MaxStreamsPerCaller
	}
	if o.EncodedCacheBytes == 0 {
		o.EncodedCacheBytes = d.EncodedCacheBytes
	}
	if o.RateLimit == 0 {
		o.RateLimit = d.RateLimit
	}
	if o.RateBurst <= 0 {
		o.RateBurst = d.RateBurst
	}
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = d.MaxHeaderBytes
	}
	return o
}
