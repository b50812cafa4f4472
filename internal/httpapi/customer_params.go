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

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// maxCustomerNameLength is the CRD's bound of a customer's name
// (config/crd/bases).
const maxCustomerNameLength = 256

// CustomerParams is a validated POST /v1/customers body.
type CustomerParams struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// DecodeCustomer parses and validates a POST /v1/customers body. It never
// panics: it returns either the parameters or an *Error with status 400 (the
// body is not JSON, has an unknown or duplicated field, or a value of the
// wrong JSON type) or 422 (a value is missing or out of bounds).
func DecodeCustomer(body []byte) (*CustomerParams, *Error) {
	root, e := parseBody(body)
	if e != nil {
		return nil, e
	}
	fields, e := checkObject(root, "", map[string]kind{"name": kindString, "email": kindString})
	if e != nil {
		return nil, e
	}
	p := &CustomerParams{}
	if p.Name, e = requiredString(fields, "", "name", maxCustomerNameLength); e != nil {
		return nil, e
	}
	if p.Email, e = requiredString(fields, "", "email", billing.MaxEmailLength); e != nil {
		return nil, e
	}
	if !billing.ValidEmail(p.Email) {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "email",
			"email must be a plain e-mail address such as ada@example.com, of at most %d characters.",
			billing.MaxEmailLength)
	}
	return p, nil
}
