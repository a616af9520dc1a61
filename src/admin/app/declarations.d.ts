// These packages ship no type declarations; the app uses them as documented, untyped.
declare module '@wordpress/block-editor';
declare module '@wordpress/block-library';
declare module '@wordpress/block-library/build-module/*';
