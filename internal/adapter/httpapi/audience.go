/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package httpapi

import (
	"net/http"

	"k8s.io/apiserver/pkg/authentication/authenticator"
)

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
