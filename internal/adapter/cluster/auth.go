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

package cluster

import (
	"net/http"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apiserver/pkg/apis/apiserver"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/authenticatorfactory"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/client-go/kubernetes"
)

// NewAuthenticator returns k8s.io/apiserver's delegating authenticator: a
// bearer token is checked with a TokenReview, and the answer cached by (a
// hash of) the token for ttl. Only answers are cached, not failures to reach
// the API. With audiences, the TokenReview asks for them and a token bound
// to none of them (such as one for the API server) is refused.
func NewAuthenticator(cs kubernetes.Interface, ttl, timeout time.Duration, audiences []string) (authenticator.Request, error) {
	backoff := retryBackoff()
	authn, _, err := authenticatorfactory.DelegatingAuthenticatorConfig{
		Anonymous:                &apiserver.AnonymousAuthConfig{Enabled: false},
		TokenAccessReviewClient:  cs.AuthenticationV1(),
		TokenAccessReviewTimeout: timeout,
		WebhookRetryBackoff:      &backoff,
		CacheTTL:                 ttl,
		APIAudiences:             audiences,
	}.New()
	return requireAudiences(authn, audiences), err
}

// NewAuthorizer returns k8s.io/apiserver's delegating authorizer: a
// SubjectAccessReview as the caller, answers cached by the full request
// attributes (user, groups, uid, extra, verb, namespace, resource, name).
func NewAuthorizer(cs kubernetes.Interface, allowTTL, denyTTL time.Duration) (authorizer.Authorizer, error) {
	backoff := retryBackoff()
	return authorizerfactory.DelegatingAuthorizerConfig{
		SubjectAccessReviewClient: cs.AuthorizationV1(),
		AllowCacheTTL:             allowTTL,
		DenyCacheTTL:              denyTTL,
		WebhookRetryBackoff:       &backoff,
	}.New()
}

// retryBackoff retries TokenReviews and SubjectAccessReviews that fail in a
// way worth retrying (connection reset, 429, 5xx) a few times, quickly: the
// request's own deadline bounds the whole.
func retryBackoff() wait.Backoff {
	return wait.Backoff{Duration: 50 * time.Millisecond, Factor: 2, Jitter: 0.2, Steps: 4}
}

// requireAudiences makes authn accept only tokens bound to one of audiences,
// as kube-apiserver's own authentication filter does with --api-audiences:
// the audiences go into the request's context, so the TokenReview asks for
// them (and the cache keys its answers by them), and an answer for none of
// them is refused. No audiences leaves authn as it is.
func requireAudiences(authn authenticator.Request, audiences authenticator.Audiences) authenticator.Request {
	if len(audiences) == 0 {
		return authn
	}
	return authenticator.RequestFunc(func(r *http.Request) (*authenticator.Response, bool, error) {
		r = r.WithContext(authenticator.WithAudiences(r.Context(), audiences))
		resp, ok, err := authn.AuthenticateRequest(r)
		if err != nil || !ok || resp == nil {
			return resp, ok, err
		}
		if len(resp.Audiences) == 0 || len(audiences.Intersect(resp.Audiences)) == 0 {
			return nil, false, nil
		}
		return resp, true, nil
	})
}
