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

package v1

// LabelCreatedBucket is on every Customer and Invoice the HTTP adapter
// creates: the ten-second bucket of its creation time (Unix seconds / 10).
// An adapter replica that has not yet seen an object created through
// another replica finds it by this label, so that a client reads its own
// writes whichever replica answers. It means nothing else; objects applied
// with kubectl do not need it.
const LabelCreatedBucket = "billing.invoicing.dev/created-bucket"
