// The service worker, served as /sw.js (its scope is the whole site).  Here it only takes the
// Web Push handlers of sw-push.js; the app's offline worker, where it exists, imports the same.
importScripts('/assets/sw-push.js');
