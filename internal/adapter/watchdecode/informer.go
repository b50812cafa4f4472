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

package watchdecode

import (
	"context"
	"net/http"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
)

// negotiated is a codec factory whose JSON serializers are decoders.
type negotiated struct {
	runtime.NegotiatedSerializer
	infos []runtime.SerializerInfo
}

func (n negotiated) SupportedMediaTypes() []runtime.SerializerInfo { return n.infos }

// Codecs are the scheme's codecs without conversion, as controller-runtime's
// clients use them, with the JSON serializer's decoding done by Decode and
// watch streams split by framer.
func Codecs(scheme *runtime.Scheme) runtime.NegotiatedSerializer {
	base := serializer.NewCodecFactory(scheme).WithoutConversion()
	infos := slices.Clone(base.SupportedMediaTypes())
	for i, info := range infos {
		if info.MediaType != runtime.ContentTypeJSON {
			continue
		}
		info.Serializer = decoder{Serializer: info.Serializer, scheme: scheme}
		if info.StreamSerializer != nil {
			stream := *info.StreamSerializer
			stream.Serializer = decoder{Serializer: stream.Serializer, scheme: scheme}
			stream.Framer = framer{}
			info.StreamSerializer = &stream
		}
		infos[i] = info
	}
	return negotiated{NegotiatedSerializer: base, infos: infos}
}

// NewInformer is for cache.Options.NewInformer: the informer of a typed
// kind of the scheme watches through a REST client with Codecs, so that
// every watch event is decoded by Decode. It watches with the options the
// reflector passes, with bookmarks, as controller-runtime's own watch does
// for a cache without selectors (the adapter's cache has none); lists,
// and the informers of any other kind, are controller-runtime's.
func NewInformer(cfg *rest.Config, httpClient *http.Client, scheme *runtime.Scheme, mapper meta.RESTMapper) func(
	toolscache.ListerWatcher, runtime.Object, time.Duration, toolscache.Indexers) toolscache.SharedIndexInformer {
	codecs := Codecs(scheme)
	params := runtime.NewParameterCodec(scheme)
	return func(lw toolscache.ListerWatcher, obj runtime.Object, resync time.Duration,
		indexers toolscache.Indexers) toolscache.SharedIndexInformer {
		if watcher, ok := typedWatch(cfg, httpClient, scheme, mapper, codecs, params, obj); ok {
			lw = &toolscache.ListWatch{
				ListWithContextFunc:  toolscache.ToListerWatcherWithContext(lw).ListWithContext,
				WatchFuncWithContext: watcher,
			}
		}
		return toolscache.NewSharedIndexInformer(lw, obj, resync, indexers)
	}
}

// typedWatch returns the watch function of obj's kind through a client
// with codecs; ok is false for a kind it does not serve (unstructured,
// metadata-only, unknown to the scheme or the mapper, or one of
// Kubernetes' own, which controller-runtime reads as protobuf).
func typedWatch(cfg *rest.Config, httpClient *http.Client, scheme *runtime.Scheme, mapper meta.RESTMapper,
	codecs runtime.NegotiatedSerializer, params runtime.ParameterCodec, obj runtime.Object) (
	toolscache.WatchFuncWithContext, bool) {
	switch obj.(type) {
	case runtime.Unstructured, *metav1.PartialObjectMetadata:
		return nil, false
	}
	kinds, unversioned, err := scheme.ObjectKinds(obj)
	if err != nil || unversioned || len(kinds) != 1 {
		return nil, false
	}
	gvk := kinds[0]
	if clientgoscheme.Scheme.Recognizes(gvk) {
		return nil, false // Kubernetes' own kinds: controller-runtime watches them in protobuf
	}
	mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, false
	}
	c := rest.CopyConfig(cfg)
	gv := gvk.GroupVersion()
	c.GroupVersion = &gv
	c.APIPath = "/apis"
	if gv.Group == "" {
		c.APIPath = "/api"
	}
	c.NegotiatedSerializer = codecs
	if c.UserAgent == "" {
		c.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	client, err := rest.RESTClientForConfigAndClient(c, httpClient)
	if err != nil {
		return nil, false
	}
	resource := mapping.Resource.Resource
	return func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
		opts.Watch = true
		opts.AllowWatchBookmarks = true
		return client.Get().Resource(resource).VersionedParams(&opts, params).Watch(ctx)
	}, true
}
