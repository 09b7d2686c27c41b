<?xml version="1.0" encoding="UTF-8"?>
<!-- External tileset for foreign_square.tmj (TSX format, tiles named by a `name` property). -->
<tileset version="1.10" tiledversion="1.10.2" name="kok" tilewidth="16" tileheight="16" tilecount="4" columns="4">
 <image source="kok.png" width="64" height="16"/>
 <tile id="0"><properties><property name="name" value="plains"/></properties></tile>
 <tile id="1"><properties><property name="name" value="forest"/></properties></tile>
 <tile id="2"><properties><property name="name" value="sea"/></properties></tile>
 <tile id="3"><properties><property name="name" value="mountains"/></properties></tile>
</tileset>
