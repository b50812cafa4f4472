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
	"math"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
	"k8s.io/apiserver/pkg/authentication/user"
)

// limiter is a token bucket per caller identity. Buckets idle for longer
// than it takes them to fill up are forgotten: a fresh one is the same.
type limiter struct {
	limit   rate.Limit
	burst   int
	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiter(perSecond float64, burst int) *limiter {
	if perSecond <= 0 {
		return nil
	}
	return &limiter{limit: rate.Limit(perSecond), burst: max(burst, 1), buckets: map[string]*bucket{}}
}

// allow takes a token from key's bucket; when there is none it answers how
// long until there is.
func (l *limiter) allow(key string, now time.Time) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	idle := max(time.Duration(float64(l.burst)/float64(l.limit)*float64(time.Second)), time.Minute)
	if now.Sub(l.swept) > idle {
		for k, b := range l.buckets {
			if now.Sub(b.seen) > idle {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(l.limit, l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	res := b.lim.ReserveN(now, 1)
	if delay := res.DelayFrom(now); delay > 0 {
		res.CancelAt(now)
		return false, delay
	}
	return true, 0
}

// callerKey identifies a caller identity, for its rate limit and its bound
// of open streams.
func callerKey(u user.Info) string { return u.GetName() + "\x00" + u.GetUID() }

// rateLimit answers 429 when the caller has used up its budget.
func (a *Adapter) rateLimit(u user.Info) *Error {
	ok, delay := a.limiter.allow(callerKey(u), a.now())
	if ok {
		return nil
	}
	return &Error{
		Status:     http.StatusTooManyRequests,
		Code:       CodeRateLimited,
		Message:    "Too many requests; retry after the time in the Retry-After header.",
		RetryAfter: int(math.Ceil(delay.Seconds())),
	}
}
