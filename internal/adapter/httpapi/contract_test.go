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
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/helpers"
	"github.com/pb33f/libopenapi-validator/paths"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
)

// contract validates HTTP responses against openapi.json. The test suite
// sends every request through a client whose transport validates each
// response, so the document cannot drift from the handlers.
type contract struct {
	mu          sync.Mutex // the validator's caches are not documented as concurrency-safe
	validator   validator.Validator
	model       *v3.Document
	opts        *config.ValidationOptions
	errorSchema *base.Schema
	// invoiceSchema checks the data of each event of the feed's stream.
	invoiceSchema *base.Schema
	// eventSchema checks the data of each event of the events' stream.
	eventSchema *base.Schema
	schemas     schema_validation.SchemaValidator
	checked     int
}

func newContract() (*contract, error) {
	doc, err := libopenapi.NewDocument(OpenAPIDocument())
	if err != nil {
		return nil, fmt.Errorf("parsing openapi.json: %w", err)
	}
	v, errs := validator.NewValidator(doc, config.WithFormatAssertions())
	if len(errs) > 0 {
		return nil, fmt.Errorf("building the validator: %w", errors.Join(errs...))
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		msgs := make([]string, len(verrs))
		for i, e := range verrs {
			msgs[i] = e.Error()
		}
		return nil, fmt.Errorf("openapi.json is not a valid OpenAPI 3.1 document: %s", strings.Join(msgs, "; "))
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("building the model: %w", err)
	}
	errProxy := model.Model.Components.Schemas.GetOrZero("Error")
	if errProxy == nil {
		return nil, errors.New("openapi.json has no Error schema")
	}
	invoiceProxy := model.Model.Components.Schemas.GetOrZero("Invoice")
	if invoiceProxy == nil {
		return nil, errors.New("openapi.json has no Invoice schema")
	}
	streamEventProxy := model.Model.Components.Schemas.GetOrZero("Event")
	if streamEventProxy == nil {
		return nil, errors.New("openapi.json has no Event schema")
	}
	return &contract{
		invoiceSchema: invoiceProxy.Schema(),
		eventSchema:   streamEventProxy.Schema(),
		validator:     v,
		model:         &model.Model,
		opts:          config.NewValidationOptions(config.WithFormatAssertions()),
		errorSchema:   errProxy.Schema(),
		schemas:       schema_validation.NewSchemaValidator(config.WithFormatAssertions()),
	}, nil
}

// check validates one response (whose body has been read into body)
// against the document.
func (c *contract) check(req *http.Request, resp *http.Response, body []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.checked++
	if id := resp.Header.Get(RequestIDHeader); sanitizeRequestID(id) == "" {
		return fmt.Errorf("%s %s: %d response without a valid Request-Id header (%q)", req.Method, req.URL.Path, resp.StatusCode, id)
	}
	pathItem, _, _ := paths.FindPath(req, c.model, c.opts)
	switch {
	// The validator matches "/v1/customers/" to "/v1/customers"; the
	// document has no path with a trailing slash, and neither has the server.
	case pathItem == nil, strings.HasSuffix(req.URL.Path, "/"):
		return c.checkUndocumented(req, resp, body, http.StatusNotFound, CodePathUnknown)
	case helpers.ExtractOperation(req, pathItem) == nil:
		if resp.Header.Get("Allow") == "" {
			return fmt.Errorf("%s %s: 405 without an Allow header", req.Method, req.URL.Path)
		}
		return c.checkUndocumented(req, resp, body, http.StatusMethodNotAllowed, CodeMethodNotAllowed)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	ok, errs := c.validator.ValidateHttpResponse(req, resp)
	if ok {
		return nil
	}
	return validationError(req, resp, body, errs)
}

// checkEvent validates the data of one invoice.issued event of a stream
// against the Invoice schema.
func (c *contract) checkEvent(data []byte) error {
	return c.checkSchema(c.invoiceSchema, "Invoice", data)
}

// checkStreamEvent validates the data of one event of the stream of
// GET /v1/events against the Event schema.
func (c *contract) checkStreamEvent(data []byte) error {
	return c.checkSchema(c.eventSchema, "Event", data)
}

// checkWebhookEvent validates the body of one webhook delivery against the
// Event schema, which every webhook of the document names (the check
// TestTheDocumentDescribesAWebhookForEveryEventType).
func (c *contract) checkWebhookEvent(body []byte) error {
	return c.checkSchema(c.eventSchema, "Event", body)
}

func (c *contract) checkSchema(schema *base.Schema, name string, data []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.checked++
	if ok, errs := c.schemas.ValidateSchemaBytes(schema, data); !ok {
		msgs := make([]string, 0, len(errs))
		for _, e := range errs {
			msgs = append(msgs, e.Error())
		}
		return fmt.Errorf("the data does not match the %s schema: %s\ndata: %s", name, strings.Join(msgs, "; "), data)
	}
	return nil
}

// checkUndocumented checks an answer to a path or method the document does
// not have: it must be the given error, with an error body.
func (c *contract) checkUndocumented(req *http.Request, resp *http.Response, body []byte, status int, code string) error {
	if resp.StatusCode != status || !strings.Contains(string(body), `"code":"`+code+`"`) {
		return fmt.Errorf("%s %s is not in openapi.json, but was answered %d %s", req.Method, req.URL.Path,
			resp.StatusCode, body)
	}
	if ok, errs := c.schemas.ValidateSchemaBytes(c.errorSchema, body); !ok {
		return validationError(req, resp, body, errs)
	}
	return nil
}

func validationError[E error](req *http.Request, resp *http.Response, body []byte, errs []E) error {
	msgs := make([]string, 0, len(errs))
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	return fmt.Errorf("%s %s: the %d response does not match openapi.json: %s\nbody: %s",
		req.Method, req.URL.Path, resp.StatusCode, strings.Join(msgs, "; "), body)
}

// validatingTransport sends requests with base and checks each response
// against the contract; a mismatch is returned as the request's error.
type validatingTransport struct {
	base     http.RoundTripper
	contract *contract
}

func (t *validatingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusOK && resp.Header.Get("Content-Type") == "text/event-stream" {
		// A stream does not end, and openapi.json describes it in its
		// operation (description and x-event-stream), not as a content
		// type of the 200 response (which would give typed clients a union
		// for the list's data), so it is exempt from the response
		// validation: its events are checked one at a time (checkEvent,
		// checkStreamEvent) by the tests that read them.
		if id := resp.Header.Get(RequestIDHeader); sanitizeRequestID(id) == "" {
			_ = resp.Body.Close()
			return nil, fmt.Errorf("%s %s: event stream without a valid Request-Id header", req.Method, req.URL.Path)
		}
		return resp, nil
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading the response body: %w", err)
	}
	if err := t.contract.check(req, resp, body); err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}
